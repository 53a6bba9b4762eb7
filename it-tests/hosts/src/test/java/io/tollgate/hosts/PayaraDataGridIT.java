package io.tollgate.hosts;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Payara Micro's Data Grid over three hosts, joined the way the README tells Payara users to: the first instance as a
 * data member, the ones that join a running grid with {@code --lite}, which Tollgate makes data members once it is
 * deployed there. While hosts 2 and 3 start and join, host 1 decides request after request on fresh keys: a member
 * without Tollgate's classes owns no bucket, so none is sent there, and holds no backup: the joining members log no
 * "No DataSerializerFactory" error, and all but the odd request caught by a partition's migration (under 5 %; joining
 * as data members, every request of the 8-9 s until Tollgate was deployed on them failed) are decided by the store.
 * Then the three share one limit: of 30 requests on one key over the hosts, exactly the burst of 10 are granted.
 */
class PayaraDataGridIT {

    private static final int HOSTS = 3;
    private static final int BURST = 10;
    private static final int REQUESTS = 30;
    private static final String UNREADABLE = "No DataSerializerFactory registered";

    @BeforeAll
    static void hostsCanBeMadeHere() {
        Hosts.Availability here = Hosts.availability();
        assumeTrue(here.available(), here.reason());
    }

    @Test
    void instancesThatJoinAsLiteMembersCostNoDecisionAndTheThreeShareOneLimit() throws Exception {
        Map<String, String> rules = new LinkedHashMap<>(SharedBuckets.PROBE_RULE);
        rules.put("tollgate.rules.search.rate", "1/1h");
        rules.put("tollgate.rules.search.burst", Integer.toString(BURST));
        rules.put("tollgate.rules.search.key", "header:X-Api-Key");
        rules.put("tollgate.rules.search.on-store-failure", "deny"); // a 200 only from the shared store
        WebArchive war = SampleWar.forPayara("shared", rules);
        String grid = "tollgate-hosts-" + Rig.run() + "-" + UUID.randomUUID().toString().substring(0, 8);
        List<Long> pids = new ArrayList<>();
        try (Hosts hosts = Hosts.create(HOSTS)) {
            PayaraHost first = PayaraHost.on(hosts, 1).war(war).clusterName(grid).start();
            pids.add(first.pid());
            first.awaitStarted().requireStarted();
            SharedBuckets.await(List.of(first), Duration.ofSeconds(60));

            List<Reply> duringJoins = new CopyOnWriteArrayList<>();
            AtomicBoolean joining = new AtomicBoolean(true);
            CompletableFuture<Void> load = CompletableFuture.runAsync(() -> {
                while (joining.get()) {
                    duringJoins.add(first.get("api/search?q=tea", "X-Api-Key", "key-" + UUID.randomUUID()));
                }
            });
            long t0 = System.nanoTime();
            List<PayaraHost> servers = new ArrayList<>(List.of(first));
            for (int i = 2; i <= HOSTS; i++) {
                servers.add(PayaraHost.on(hosts, i).war(war).clusterName(grid).option("--lite").start());
            }
            servers.forEach(server -> pids.add(server.pid()));
            servers.forEach(server -> server.awaitStarted().requireStarted());
            SharedBuckets.await(servers, Duration.ofSeconds(180));
            joining.set(false);
            load.get();
            long byPolicy = duringJoins.stream().filter(reply -> reply.header("RateLimit") == null).count();
            List<String> unreadable = new ArrayList<>();
            for (PayaraHost server : servers) {
                long lines = Files.readAllLines(server.logFile()).stream().filter(line -> line.contains(UNREADABLE)).count();
                if (lines > 0) {
                    unreadable.add(server + ": " + lines + " lines");
                }
            }
            System.out.println("[it] payara: hosts 2 and 3 joined as lite members in " + (System.nanoTime() - t0) / 1_000_000
                    + " ms, while host 1 decided " + duringJoins.size() + " requests on fresh keys: " + byPolicy
                    + " answered without the store; '" + UNREADABLE + "' in the logs: " + unreadable);

            String key = "key-" + UUID.randomUUID();
            SharedBuckets.Tally tally = SharedBuckets.roundRobin(servers, REQUESTS, "api/search?q=tea", "X-Api-Key", key);
            System.out.println("[it] payara: " + REQUESTS + " requests on one key round-robin over " + HOSTS + " hosts: "
                    + tally.allowed() + " allowed (burst " + BURST + "), " + tally.denied() + " denied ("
                    + tally.deniedWithoutStore() + " of them without the store); by host " + tally.statusesByHost());
            assertAll(
                    () -> assertTrue(duringJoins.size() > 10, "host 1 decided during the joins: " + duringJoins.size()),
                    () -> assertTrue(byPolicy * 20 < duringJoins.size(), "answers without the store while hosts 2 and 3 joined: "
                            + byPolicy + " of " + duringJoins.size() + ", e.g. " + duringJoins.stream()
                            .filter(reply -> reply.header("RateLimit") == null).limit(5).toList()),
                    () -> assertEquals(List.of(), unreadable, "members sent what they could not read"),
                    () -> assertEquals(BURST, tally.allowed(), "200s with a RateLimit field: " + tally.replies()),
                    () -> assertEquals(REQUESTS - BURST, tally.denied(), "429s: " + tally.replies()),
                    () -> assertEquals(0, tally.deniedWithoutStore(), "429s without the store: " + tally.replies()));
        }
        assertEquals(List.of(), Hosts.leftovers(), "left on the machine after the rig was closed");
        assertEquals(List.of(), pids.stream().filter(pid -> ProcessHandle.of(pid).isPresent()).toList(),
                "servers' processes alive after the rig was closed");
    }
}
