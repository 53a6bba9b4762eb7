package io.tollgate.hosts;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Three hosts, Payara Micro on each with the sample WAR deployed at start (without Hazelcast: Tollgate uses Payara's
 * Data Grid), the three forming one Data Grid over TCP-IP on the hosts' addresses: 30 requests on one key, spread
 * over the three hosts, get exactly the burst of 10. After the rig is closed, nothing of it is left on the machine.
 */
class PayaraHostsSmokeIT {

    private static final int HOSTS = 3;
    private static final int BURST = 10;
    private static final int REQUESTS = 30;

    @BeforeAll
    static void hostsCanBeMadeHere() {
        Hosts.Availability here = Hosts.availability();
        assumeTrue(here.available(), here.reason());
    }

    @Test
    void threeHostsInOneDataGridShareOneLimit() {
        Map<String, String> rules = new LinkedHashMap<>(SharedBuckets.PROBE_RULE);
        rules.put("tollgate.rules.search.rate", "1/1h");
        rules.put("tollgate.rules.search.burst", Integer.toString(BURST));
        rules.put("tollgate.rules.search.key", "header:X-Api-Key");
        rules.put("tollgate.rules.search.on-store-failure", "deny"); // a 200 only from the shared store
        WebArchive war = SampleWar.forPayara("shared", rules);
        String grid = "tollgate-hosts-" + Rig.run() + "-" + UUID.randomUUID().toString().substring(0, 8);
        List<Long> pids = new ArrayList<>();
        try (Hosts hosts = Hosts.create(HOSTS)) {
            long t0 = System.nanoTime();
            List<PayaraHost> servers = new ArrayList<>();
            for (int i = 1; i <= HOSTS; i++) {
                servers.add(PayaraHost.on(hosts, i).war(war).clusterName(grid).start());
            }
            servers.forEach(server -> pids.add(server.pid()));
            servers.forEach(server -> server.awaitStarted().requireStarted());
            System.out.println("[it] payara: " + HOSTS + " instances started in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
            SharedBuckets.await(servers, Duration.ofSeconds(180));

            String key = "key-" + UUID.randomUUID();
            SharedBuckets.Tally tally = SharedBuckets.roundRobin(servers, REQUESTS, "api/search?q=tea", "X-Api-Key", key);
            System.out.println("[it] payara: " + REQUESTS + " requests on one key round-robin over " + HOSTS + " hosts: "
                    + tally.allowed() + " allowed (burst " + BURST + "), " + tally.denied() + " denied ("
                    + tally.deniedWithoutStore() + " of them without the store); by host "
                    + tally.statusesByHost());
            assertAll(
                    () -> assertEquals(BURST, tally.allowed(), "200s with a RateLimit field: " + tally.replies()),
                    () -> assertEquals(REQUESTS - BURST, tally.denied(), "429s: " + tally.replies()),
                    () -> assertEquals(List.of(), tally.others(), "neither"));
        }
        assertEquals(List.of(), Hosts.leftovers(), "left on the machine after the rig was closed");
        assertEquals(List.of(), pids.stream().filter(pid -> ProcessHandle.of(pid).isPresent()).toList(),
                "servers' processes alive after the rig was closed");
    }
}
