package io.tollgate.hosts;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Three hosts, an Open Liberty server on each with the sample WAR (bundling Hazelcast): Tollgate's embedded members,
 * each on its host's address with the three addresses as members and one cluster name made up for the run, form one
 * cluster, and 30 requests on one key, spread over the three hosts, get exactly the burst of 10. Then host 3 is cut
 * from hosts 1 and 2 (checked: no TCP connection gets through, while 1 and 2 still reach each other and the test JVM
 * still reaches host 3's server), and rejoined (checked: connections get through again). After the rig is closed,
 * nothing of it is left on the machine.
 */
class LibertyHostsSmokeIT {

    private static final int HOSTS = 3;
    private static final int BURST = 10;
    private static final int REQUESTS = 30;
    private static final int HAZELCAST_PORT = 5701;

    @BeforeAll
    static void hostsCanBeMadeHere() {
        Hosts.Availability here = Hosts.availability();
        assumeTrue(here.available(), here.reason());
    }

    @Test
    void threeHostsShareOneLimitAndAHostCanBeCutOffAndRejoined() {
        Map<String, String> rules = new LinkedHashMap<>(SharedBuckets.PROBE_RULE);
        rules.put("tollgate.rules.search.rate", "1/1h");
        rules.put("tollgate.rules.search.burst", Integer.toString(BURST));
        rules.put("tollgate.rules.search.key", "header:X-Api-Key");
        rules.put("tollgate.rules.search.on-store-failure", "deny"); // a 200 only from the shared store
        WebArchive war = SampleWar.forLiberty("shared", rules);
        String cluster = "tollgate-hosts-" + Rig.run() + "-" + UUID.randomUUID().toString().substring(0, 8);
        List<Long> pids = new ArrayList<>();
        try (Hosts hosts = Hosts.create(HOSTS)) {
            String members = hosts.addresses().stream().map(a -> a + ":" + HAZELCAST_PORT).collect(Collectors.joining(","));
            long t0 = System.nanoTime();
            List<LibertyHost> servers = new ArrayList<>();
            for (int i = 1; i <= HOSTS; i++) {
                servers.add(LibertyHost.on(hosts, i)
                        .war(war)
                        .config("tollgate.hazelcast.interface", hosts.address(i))
                        .config("tollgate.hazelcast.members", members)
                        .config("tollgate.hazelcast.cluster-name", cluster)
                        .start());
            }
            servers.forEach(server -> pids.add(server.pid()));
            servers.forEach(server -> server.awaitStarted().requireStarted());
            System.out.println("[it] liberty: " + HOSTS + " servers started in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
            SharedBuckets.await(servers, Duration.ofSeconds(180));

            String key = "key-" + UUID.randomUUID();
            SharedBuckets.Tally tally = SharedBuckets.roundRobin(servers, REQUESTS, "api/search?q=tea", "X-Api-Key", key);
            System.out.println("[it] liberty: " + REQUESTS + " requests on one key round-robin over " + HOSTS + " hosts: "
                    + tally.allowed() + " allowed (burst " + BURST + "), " + tally.denied() + " denied ("
                    + tally.deniedWithoutStore() + " of them without the store); by host "
                    + tally.statusesByHost());
            assertAll(
                    () -> assertEquals(BURST, tally.allowed(), "200s with a RateLimit field: " + tally.replies()),
                    () -> assertEquals(REQUESTS - BURST, tally.denied(), "429s: " + tally.replies()),
                    () -> assertEquals(List.of(), tally.others(), "neither"));

            LibertyHost third = servers.get(2);
            hosts.isolate(3);
            boolean oneReachesThree = hosts.reaches(1, 3, third.httpPort());
            boolean threeReachesTwo = hosts.reaches(3, 2, HAZELCAST_PORT);
            boolean oneReachesTwo = hosts.reaches(1, 2, HAZELCAST_PORT);
            Reply fromTestJvm = third.get("api/status");
            hosts.rejoin(3);
            boolean oneReachesThreeAgain = hosts.reaches(1, 3, third.httpPort());
            boolean threeReachesTwoAgain = hosts.reaches(3, 2, HAZELCAST_PORT);
            System.out.println("[it] liberty: host 3 isolated: 1 -> 3 " + oneReachesThree + ", 3 -> 2 " + threeReachesTwo
                    + ", 1 -> 2 " + oneReachesTwo + ", test JVM -> 3 " + fromTestJvm.status() + "; rejoined: 1 -> 3 "
                    + oneReachesThreeAgain + ", 3 -> 2 " + threeReachesTwoAgain);
            assertAll(
                    () -> assertFalse(oneReachesThree, "host 1 reaches host 3's HTTP port although 3 is isolated"),
                    () -> assertFalse(threeReachesTwo, "host 3 reaches host 2's member although 3 is isolated"),
                    () -> assertTrue(oneReachesTwo, "hosts 1 and 2 lost each other when 3 was isolated"),
                    () -> assertEquals(200, fromTestJvm.status(), "the test JVM reaches isolated host 3: " + fromTestJvm),
                    () -> assertTrue(oneReachesThreeAgain, "host 1 does not reach host 3 after it rejoined"),
                    () -> assertTrue(threeReachesTwoAgain, "host 3 does not reach host 2 after it rejoined"));
        }
        assertEquals(List.of(), Hosts.leftovers(), "left on the machine after the rig was closed");
        assertEquals(List.of(), pids.stream().filter(pid -> ProcessHandle.of(pid).isPresent()).toList(),
                "servers' processes alive after the rig was closed");
    }
}
