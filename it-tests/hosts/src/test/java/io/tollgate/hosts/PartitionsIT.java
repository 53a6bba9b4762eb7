package io.tollgate.hosts;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Three hosts, an Open Liberty server on each with Tollgate's embedded member, which finds the others through a DNS
 * name that resolves to every host (Hazelcast's Kubernetes discovery in DNS lookup mode, as on Kubernetes with a
 * headless Service), and links between the hosts cut while the test JVM, the clients, still reach every host.
 * Hosts 1 and 2 have {@code tollgate.cluster.quorum=2}, host 3 none, so that both a minority with a quorum and one
 * without are tried. The rule {@code search}: burst 10, one token an hour (no refill within the test), keyed by
 * {@code X-Api-Key}, {@code on-store-failure=local} (the default).
 *
 * <ul>
 * <li>a short cut of host 3, under the time a member is taken for gone: a key drained and denied before the cut gets
 *     nothing more on any host; of a fresh key the store grants at most the burst, and each host that cannot reach
 *     the key's owner at most its share (a third); the limiter decides by the store again soon after the link
 *     returns;
 * <li>a long cut of host 3 (no quorum there), which splits the cluster: the majority takes 3 of one key's 10 tokens,
 *     host 3 all of them, and the majority changes the rule; after the heal the two sides merge, the change is in
 *     force on host 3, and the key is drained on every host (the merge keeps the emptier side's tokens);
 * <li>a long cut of host 1 (quorum 2): host 1, alone, is not ready and answers by its share; the other two decide by
 *     the store; all is back after the heal.
 * </ul>
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PartitionsIT {

    private static final int HOSTS = QuorumHosts.COUNT;
    private static final int BURST = 10;
    private static final int SHARE = BURST / HOSTS;
    /** Longer than Tollgate's member timeout (10 s), with the time to see the split through. */
    private static final Duration SPLIT_WAIT = Duration.ofSeconds(60);
    private static final Duration HEAL_WAIT = Duration.ofSeconds(90);
    /** Fresh keys in a row that show every member's partitions reached. */
    private static final int IN_A_ROW = 20;
    /** Shorter than the member timeout: a blip, not a split. */
    private static final Duration SHORT_CUT = Duration.ofSeconds(4);

    private Hosts hosts;
    private final List<LibertyHost> servers = new ArrayList<>();

    @BeforeAll
    void threeHostsWithOneCluster() {
        Hosts.Availability here = Hosts.availability();
        assumeTrue(here.available(), here.reason());
        Map<String, String> rules = new LinkedHashMap<>(SharedBuckets.PROBE_RULE);
        rules.put("tollgate.rules.search.rate", "1/1h");
        rules.put("tollgate.rules.search.burst", Integer.toString(BURST));
        rules.put("tollgate.rules.search.key", "header:X-Api-Key");
        hosts = Hosts.create(HOSTS);
        servers.addAll(QuorumHosts.start(hosts, SampleWar.forLiberty("shop", rules)));
    }

    @AfterEach
    void healEverything() {
        if (hosts != null) {
            hosts.healAll();
        }
    }

    @AfterAll
    void removeTheHosts() {
        if (hosts != null) {
            hosts.close();
        }
    }

    @Test
    @Order(1)
    void theThreeHostsShareOneLimit() {
        SharedBuckets.Tally tally = SharedBuckets.roundRobin(servers, 30, "api/search?q=tea", "X-Api-Key", fresh());
        System.out.println("[it] partitions: 30 requests on one key over 3 hosts: " + tally.allowed() + " allowed of a burst of "
                + BURST);
        assertEquals(BURST, tally.allowed(), "allowed, decided by the store: " + tally.replies());
        assertEquals(30 - BURST, tally.denied(), "denied, decided by the store: " + tally.replies());
    }

    @Test
    @Order(2)
    void aShortCutGrantsNoFreshBurstAndTheStoreIsBackSoonAfter() {
        String drained = fresh();
        String untouched = fresh();
        SharedBuckets.Tally before = SharedBuckets.roundRobin(servers, 15, "api/search?q=tea", "X-Api-Key", drained);
        assertEquals(BURST, before.allowed(), "the drained key before the cut: " + before.replies());

        hosts.isolate(3);
        long cutAt = System.nanoTime();
        List<Reply> drainedDuring = new ArrayList<>();
        List<Reply> untouchedDuring = new ArrayList<>();
        for (int i = 0; System.nanoTime() - cutAt < SHORT_CUT.toNanos(); i++) {
            LibertyHost server = servers.get(i % HOSTS);
            drainedDuring.add(server.get("api/search?q=tea", "X-Api-Key", drained));
            untouchedDuring.add(server.get("api/search?q=tea", "X-Api-Key", untouched));
        }
        hosts.rejoin(3);
        long healedAt = System.nanoTime();
        Duration back = awaitStore(servers, HEAL_WAIT);
        List<Reply> untouchedAfter = new ArrayList<>();
        for (int i = 0; i < 2 * BURST; i++) {
            untouchedAfter.add(servers.get(i % HOSTS).get("api/search?q=tea", "X-Api-Key", untouched));
        }
        long drainedGranted = count(drainedDuring, reply -> reply.status() == 200);
        List<Reply> untouchedAll = new ArrayList<>(untouchedDuring);
        untouchedAll.addAll(untouchedAfter);
        long byStore = count(untouchedAll, reply -> reply.status() == 200 && reply.header("RateLimit") != null);
        Map<Integer, Long> byShare = new LinkedHashMap<>();
        for (int i = 0; i < untouchedDuring.size(); i++) {
            Reply reply = untouchedDuring.get(i);
            if (reply.status() == 200 && reply.header("RateLimit") == null) {
                byShare.merge(i % HOSTS + 1, 1L, Long::sum);
            }
        }
        long policyAnswers = count(drainedDuring, reply -> reply.header("RateLimit") == null)
                + count(untouchedDuring, reply -> reply.header("RateLimit") == null);
        System.out.println("[it] partitions: a " + SHORT_CUT.toSeconds() + " s cut of host 3, " + (drainedDuring.size()
                + untouchedDuring.size()) + " requests during it (" + policyAnswers + " answered without the store): the key "
                + "drained before it got " + drainedGranted + " more; a fresh key got " + byStore + " from the store (burst "
                + BURST + ") and by host " + byShare + " from local shares (" + SHARE + " each at most); the store decided "
                + "on host 3 again " + back.toMillis() + " ms after the link returned");
        assertAll(
                () -> assertEquals(0, drainedGranted, "a drained key got tokens during the cut: " + granted(drainedDuring)),
                () -> assertTrue(byStore <= BURST, "the store granted " + byStore + ", more than the burst: " + untouchedAll),
                () -> assertTrue(byShare.values().stream().allMatch(n -> n <= SHARE), "a host granted more than its share "
                        + "of the burst, " + SHARE + ": " + byShare),
                () -> assertTrue(policyAnswers > 0, "every answer during the cut came from the store: it did not take"));
    }

    @Test
    @Order(3)
    void aSplitHealsWithTheMajoritysChangesInForceAndNoBucketGainsTokens() {
        String key = fresh();
        long mergedBefore = occurrences(servers.get(2), MERGED);
        hosts.isolate(3);
        long cutAt = System.nanoTime();
        // each side decides by the store of its own again: the split has happened
        Duration splitAfter = awaitStore(servers.subList(2, 3), SPLIT_WAIT);
        awaitStore(servers.subList(0, 2), SPLIT_WAIT);
        // the majority takes a few tokens, host 3 all of them: its side of the bucket is the emptier one, which a merge
        // that keeps the larger side's value (Hazelcast's default) would lose
        SharedBuckets.Tally majority = SharedBuckets.roundRobin(servers.subList(0, 2), 3, "api/search?q=tea", "X-Api-Key", key);
        SharedBuckets.Tally minority = SharedBuckets.roundRobin(servers.subList(2, 3), 12, "api/search?q=tea", "X-Api-Key", key);
        Reply changed = servers.get(0).post("api/operator/rules/search", "{\"burst\":\"7\"}", "Content-Type", "application/json");
        assertEquals(200, changed.status(), "the change on host 1: " + changed);
        Reply unchanged = servers.get(2).get("api/operator/rules/search");
        hosts.rejoin(3);
        long healedAt = System.nanoTime();

        Duration changeArrived = awaitAnswer(servers.get(2), "api/operator/rules/search", null, null,
                reply -> reply.body().contains("burst 7"), HEAL_WAIT);
        // host 3's member has rejoined and sent its side's buckets, merged by Tollgate's policy, when it says MERGED
        awaitLog(servers.get(2), MERGED, mergedBefore + 1, HEAL_WAIT);
        awaitOneCluster(HEAL_WAIT);
        Duration merged = Duration.ofNanos(System.nanoTime() - healedAt);
        // and each host decides by the store again: right after the merge, a host whose member is still settling
        // answers by on-store-failure (its local share), which is no bucket of the store gaining tokens
        awaitStore(servers, HEAL_WAIT);
        List<Reply> after = new ArrayList<>();
        for (int i = 0; i < 2 * HOSTS; i++) {
            after.add(servers.get(i % HOSTS).get("api/search?q=tea", "X-Api-Key", key));
        }
        System.out.println("[it] partitions: host 3 cut off (no quorum there): split seen on host 3 after "
                + splitAfter.toMillis() + " ms of the cut (" + (System.nanoTime() - cutAt) / 1_000_000 / 1_000
                + " s in all); during it the majority granted " + majority.allowed() + " and host 3 " + minority.allowed()
                + " of one key (burst " + BURST + ", each side with a copy of the bucket); after the heal the majority's change was "
                + "in force on host 3 after " + changeArrived.toMillis() + " ms, one cluster of 3 again after "
                + merged.toMillis() + " ms; then the key: " + statuses(after));
        assertAll(
                () -> assertEquals(3, majority.allowed(), "the majority takes 3 of the key's tokens: " + majority.replies()),
                () -> assertTrue(minority.allowed() >= 1 && minority.denied() >= 1, "host 3 decides the key by its own copy, "
                        + "and drains it: " + minority.replies()),
                () -> assertTrue(unchanged.body().contains("burst 10"), "host 3 did not see the change while cut off: " + unchanged),
                () -> assertTrue(after.stream().allMatch(reply -> reply.status() == 429 && reply.header("RateLimit") != null),
                        "the key, drained on host 3's side, is drained on every host after the merge: " + after));
    }

    @Test
    @Order(4)
    void aMemberBelowTheQuorumAnswersByItsShareAndIsNotReady() {
        String key = fresh();
        hosts.isolate(1);
        long cutAt = System.nanoTime();
        Duration belowQuorum = awaitAnswer(servers.get(0), root(servers.get(0)), "health/ready",
                reply -> reply.status() == 503 && reply.body().contains("tollgate.cluster.quorum"), SPLIT_WAIT);
        Reply readiness = HostHttp.get(root(servers.get(0)), "health/ready");
        // the other side has seen the split, and taken over host 1's buckets, once fresh keys are decided by its store
        awaitStore(servers.subList(1, 3), SPLIT_WAIT);
        List<Reply> alone = new ArrayList<>();
        for (int i = 0; i < 2 * BURST; i++) {
            alone.add(servers.get(0).get("api/search?q=tea", "X-Api-Key", key));
        }
        SharedBuckets.Tally others = SharedBuckets.roundRobin(servers.subList(1, 3), 4, "api/search?q=tea", "X-Api-Key", fresh());
        hosts.rejoin(1);
        Duration readyAgain = awaitAnswer(servers.get(0), root(servers.get(0)), "health/ready", reply -> reply.status() == 200,
                HEAL_WAIT);
        awaitOneCluster(HEAL_WAIT);
        long share = 7 / HOSTS; // the burst is 7 since the change above
        System.out.println("[it] partitions: host 1 cut off (quorum 2): below its quorum after " + belowQuorum.toMillis()
                + " ms (" + readiness.body().trim() + "); alone it granted " + count(alone, reply -> reply.status() == 200)
                + " of " + alone.size() + " on one key, none decided by the store; hosts 2 and 3 decided " + (others.allowed()
                + others.denied()) + " of 4 by the store; " + (System.nanoTime() - cutAt) / 1_000_000_000 + " s cut; ready "
                + "again " + readyAgain.toMillis() + " ms after the heal");
        assertAll(
                () -> assertEquals(503, readiness.status(), "readiness of host 1 alone: " + readiness),
                () -> assertTrue(alone.stream().allMatch(reply -> reply.header("RateLimit") == null), "host 1 alone asked the "
                        + "store: " + alone),
                () -> assertEquals(share, count(alone, reply -> reply.status() == 200), "host 1's share of burst 7: "
                        + statuses(alone)),
                () -> assertEquals(4, others.allowed() + others.denied(), "hosts 2 and 3 decide by the store: " + others.replies()));
    }

    /**
     * Waits until the servers decide by the store: {@value #IN_A_ROW} fresh keys in a row, over the servers in turn, each
     * answered with a {@code RateLimit} field (a fresh key lands on any member's partitions, so that a run of them shows
     * every owner reached).
     *
     * @return how long it took
     */
    private static Duration awaitStore(List<? extends ServerHost> servers, Duration timeout) {
        long start = System.nanoTime();
        int inARow = 0;
        Reply last = null;
        for (int i = 0; inARow < IN_A_ROW; i++) {
            if (System.nanoTime() - start > timeout.toNanos()) {
                throw new AssertionError(servers + " did not decide by the store within " + timeout.toSeconds() + " s; last: " + last);
            }
            try {
                last = servers.get(i % servers.size()).get("api/search?q=tea", "X-Api-Key", fresh());
            } catch (RuntimeException e) {
                last = new Reply("GET api/search", -1, Map.of(), e.toString());
            }
            inARow = last.header("RateLimit") != null ? inARow + 1 : 0;
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /** @return how long until {@code server} answers {@code path} (in its application) as {@code wanted} */
    private static Duration awaitAnswer(ServerHost server, String path, String header, String value, Predicate<Reply> wanted,
            Duration timeout) {
        return awaitAnswer(server, server.base(), path, wanted, timeout, header == null ? new String[0] : new String[] {header, value});
    }

    /** @return how long until {@code server} answers {@code path} under {@code base} as {@code wanted} */
    private static Duration awaitAnswer(ServerHost server, URI base, String path, Predicate<Reply> wanted, Duration timeout,
            String... headers) {
        long start = System.nanoTime();
        Reply last = null;
        while (System.nanoTime() - start < timeout.toNanos()) {
            try {
                last = HostHttp.get(base, path, headers);
                if (wanted.test(last)) {
                    return Duration.ofNanos(System.nanoTime() - start);
                }
            } catch (RuntimeException e) {
                last = new Reply("GET " + path, -1, Map.of(), e.toString());
            }
            pause(Duration.ofMillis(100));
        }
        throw new AssertionError(server + " did not answer " + path + " as wanted within " + timeout.toSeconds() + " s; last: " + last);
    }

    /** What Hazelcast logs on a member that merged into the other side of a split, once its data is sent. */
    private static final String MERGED = "is MERGED";

    private static long occurrences(LibertyHost server, String text) {
        try {
            return java.nio.file.Files.readAllLines(server.messagesLog()).stream().filter(line -> line.contains(text)).count();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Waits until {@code server}'s log holds {@code text} at least {@code times} times. */
    private static void awaitLog(LibertyHost server, String text, long times, Duration timeout) {
        long start = System.nanoTime();
        while (occurrences(server, text) < times) {
            if (System.nanoTime() - start > timeout.toNanos()) {
                throw new AssertionError(server + " did not log '" + text + "' within " + timeout.toSeconds() + " s");
            }
            pause(Duration.ofMillis(100));
        }
    }

    /** Waits until the three servers decide on one set of buckets again. */
    private void awaitOneCluster(Duration timeout) {
        SharedBuckets.await(servers, timeout);
    }

    private static URI root(ServerHost server) {
        return URI.create("http://" + server.address() + ":" + server.httpPort() + "/");
    }

    private static String fresh() {
        return "key-" + UUID.randomUUID();
    }

    private static long count(List<Reply> replies, Predicate<Reply> which) {
        return replies.stream().filter(which).count();
    }

    private static List<String> granted(List<Reply> replies) {
        return replies.stream().filter(reply -> reply.status() == 200).map(Reply::request).toList();
    }

    private static String statuses(List<Reply> replies) {
        return replies.stream().map(reply -> reply.status() + (reply.header("RateLimit") == null ? "" : "*")).toList().toString();
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
