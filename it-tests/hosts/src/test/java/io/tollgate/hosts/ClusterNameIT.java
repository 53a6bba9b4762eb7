package io.tollgate.hosts;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An application configured for two hosts without a cluster name, as a new user would write it: Tollgate would make up
 * a name private to each host, the members would never join, and each host would limit alone. The deployment fails
 * instead, naming {@code tollgate.hazelcast.cluster-name} and the other host's address, and no member is started, so
 * no name is sent to the other host.
 */
class ClusterNameIT {

    @BeforeAll
    static void hostsCanBeMadeHere() {
        Hosts.Availability here = Hosts.availability();
        assumeTrue(here.available(), here.reason());
    }

    @Test
    void membersOnAnotherHostWithoutAClusterNameFailTheDeployment() throws IOException {
        Map<String, String> rules = new LinkedHashMap<>(SharedBuckets.PROBE_RULE);
        rules.put("tollgate.rules.search.rate", "1/1h");
        WebArchive war = SampleWar.forLiberty("shop", rules);
        try (Hosts hosts = Hosts.create(2)) {
            LibertyHost server = LibertyHost.on(hosts, 1).war(war)
                    .config("tollgate.hazelcast.interface", hosts.address(1))
                    .config("tollgate.hazelcast.members", hosts.address(1) + ":5701," + hosts.address(2) + ":5701")
                    .start();
            Startup startup = server.awaitStarted().requireFailed();
            String log = Files.readString(server.messagesLog());
            System.out.println("[it] cluster name: the deployment on host 1 failed after " + startup.took().toMillis() + " ms: "
                    + startup.detail().lines().findFirst().orElse(""));
            assertAll(
                    () -> assertTrue(log.contains("tollgate.hazelcast.cluster-name is not set: tollgate.hazelcast.members = '"
                            + hosts.address(1) + ":5701," + hosts.address(2) + ":5701' names " + hosts.address(2) + ":5701, not on "
                            + "this host"), "the deployment's error names the property and the other host: " + startup.detail()),
                    () -> assertFalse(log.contains("Hazelcast Platform"), "a Hazelcast member was started"),
                    () -> assertTrue(Files.notExists(server.home().resolve(".tollgate").resolve("cluster-name")),
                            "a private cluster name was made up"));
        }
    }
}
