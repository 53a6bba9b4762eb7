package io.tollgate.internal.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.IsolatedTollgate;
import io.tollgate.testing.TollgateMemberMain;
import io.tollgate.testing.TollgateMemberProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * A rolling upgrade, for real: members on Tollgate at wire version 0 (the jar of commit 62cb7a6, see
 * {@code src/test/resources/wire-v0}) and members on this code, in JVMs of their own and in this one,
 * decide the same keys, in single decisions and coalesced batches, while owners are killed (the members
 * are in two partition groups that make their backups, written by the other version, take over: first a
 * member on this code dies, then an old one), the last old member leaves (the newest wire version comes
 * into use) and an old member joins again (version 0 at once). Every key is a bucket of 30 tokens
 * refilled one per hour: every answer is checked against the exact count, and the grants add up to 30.
 */
@Tag("hazelcast")
@Execution(ExecutionMode.CONCURRENT) // mostly waits: runs beside other classes
@ResourceLock("MixedVersionClusterTest") // and its own tests one after another
class MixedVersionClusterTest {

    private static final long BURST = 30;
    private static final TokenBucket BUCKET = TokenBucket.of(Limit.of(BURST, 1, Duration.ofHours(1)));
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final String cluster = "tollgate-mixed-" + UUID.randomUUID();
    private final List<Integer> ports = HazelcastTestCluster.freePorts(6);
    private final List<String> addresses = ports.stream().map(p -> "127.0.0.1:" + p).collect(Collectors.toList());
    private final Map<UUID, String> names = new HashMap<>();
    /** Per key, the tokens left as the answers so far say; the next answer must follow from it exactly. */
    private final Map<String, Long> left = new LinkedHashMap<>();
    private final Map<String, Long> granted = new HashMap<>();

    @Test
    void membersOfTwoTollgateVersionsDecideTheSameKeysExactly() throws Exception {
        Path wireV0 = IsolatedTollgate.wireV0Jar();
        List<TollgateMemberProcess> processes = new ArrayList<>();
        List<HazelcastInstance> here = new ArrayList<>();
        long start = System.nanoTime();
        try {
            // two partition groups, a backup is never in its owner's: while all four are up, one group per version
            HazelcastInstance m0 = Hazelcast.newHazelcastInstance(config(0, "a")); // first: the master, whose partition table the test reads
            here.add(m0);
            names.put(m0.getCluster().getLocalMember().getUuid(), "M0 (this code, this JVM)");
            TollgateMemberProcess a1 = TollgateMemberProcess.start(cluster, 1, ports.get(1), addresses, null, true, "a");
            TollgateMemberProcess b1 = TollgateMemberProcess.start(cluster, 2, ports.get(2), addresses, wireV0, true, "b");
            TollgateMemberProcess b2 = TollgateMemberProcess.start(cluster, 3, ports.get(3), addresses, wireV0, true, "b");
            TollgateMemberProcess late = TollgateMemberProcess.start(cluster, 4, ports.get(4), addresses, wireV0, false, "a");
            processes.addAll(List.of(a1, b1, b2, late));
            UUID a1Id = a1.awaitReady();
            UUID b1Id = b1.awaitReady();
            UUID b2Id = b2.awaitReady();
            names.put(a1Id, "A1 (this code)");
            names.put(b1Id, "B1 (version 0)");
            names.put(b2Id, "B2 (version 0)");
            awaitSettled(m0, 4);
            UUID m0Id = m0.getCluster().getLocalMember().getUuid();
            HazelcastBucketStore s0 = new HazelcastBucketStore(m0, BucketMapConfig.DEFAULT_MAP_NAME, true, TIMEOUT);
            Decider d0 = local("M0", s0);
            assertThat(pairs(m0).keySet()).as("owner -> backup of every partition")
                    .allMatch(pair -> pair.matches(".*version 0.* -> .*this code.*|.*this code.* -> .*version 0.*"));
            List<String> keys = new ArrayList<>();
            for (UUID owner : List.of(m0Id, a1Id, b1Id, b2Id)) {
                keys.addAll(keys(m0, owner, 2));
            }
            keys.forEach(key -> left.put(key, BURST));

            assertThat(s0.wireVersion()).as("old members in the cluster").isZero();
            assertThat(a1.wireVersion()).isZero();
            assertThat(b1.wireVersion()).as("a Tollgate without wire versions").isEqualTo(-1);
            decideEveryKey("version 0 in use, every member deciding", keys, d0, remote("A1", a1), remote("B1", b1), remote("B2", b2));
            oldMembersGetNoRefunds(m0, s0, b1Id);

            a1.kill();
            awaitSettled(m0, 3);
            decideEveryKey("A1 (this code) killed: the backups version 0 wrote of its keys took over", keys, d0,
                    remote("B1", b1), remote("B2", b2));

            // M0 is now alone in its group: it backs up every partition an old member owns
            UUID dyingId = keys.stream().map(key -> owner(m0, key)).filter(id -> !id.equals(m0Id))
                    .collect(Collectors.groupingBy(id -> id, Collectors.counting())).entrySet().stream()
                    .max(Map.Entry.comparingByValue()).orElseThrow(() -> new IllegalStateException(
                            "M0 owns every key; the partition table has (owner -> backup: partitions) " + pairs(m0))).getKey();
            boolean b1Dies = dyingId.equals(b1Id);
            TollgateMemberProcess dying = b1Dies ? b1 : b2;
            TollgateMemberProcess staying = b1Dies ? b2 : b1;
            String stays = b1Dies ? "B2" : "B1";
            assertThat(pairs(m0)).as("owner -> backup of every partition")
                    .containsKey(names.get(dyingId) + " -> " + names.get(m0Id))
                    .doesNotContainKey(names.get(dyingId) + " -> " + names.get(b1Dies ? b2Id : b1Id));
            dying.kill();
            awaitSettled(m0, 2);
            decideEveryKey(names.get(dyingId) + " killed: the backups this code wrote of its keys took over", keys, d0,
                    remote(stays, staying));

            HazelcastInstance m2 = Hazelcast.newHazelcastInstance(config(5, "b")); // with M0, two groups once the old member is gone
            here.add(m2);
            awaitSettled(m0, 3);
            HazelcastBucketStore s2 = new HazelcastBucketStore(m2, BucketMapConfig.DEFAULT_MAP_NAME, true, TIMEOUT);
            staying.shutdown();
            awaitSettled(m0, 2);
            awaitVersion("the last old member left", s0, Serialization.WIRE_VERSION);
            awaitVersion("the last old member left, seen from M2", s2, Serialization.WIRE_VERSION);
            decideEveryKey("only this code left: the newest version in use", keys, d0, local("M2", s2));
            String refunded = "mixed-refund:" + UUID.randomUUID();
            assertThat(s2.acquire(refunded, BUCKET, 3).toCompletableFuture().get(30, TimeUnit.SECONDS).remaining()).isEqualTo(BURST - 3);
            assertThat(s0.refund(refunded, BUCKET, 2).toCompletableFuture().get(30, TimeUnit.SECONDS).remaining())
                    .as("only this code left: refunds are sent").isEqualTo(BURST - 1);

            late.join();
            names.put(late.awaitReady(), "L (version 0)");
            awaitSettled(m0, 3);
            awaitVersion("an old member joined", s0, 0);
            awaitVersion("an old member joined, seen from M2", s2, 0);
            decideEveryKey("an old member joined: version 0 in use again", keys, remote("L", late), d0, local("M2", s2));

            for (String key : keys) {
                assertThat(granted.get(key)).as("tokens granted on %s over the whole run", key).isEqualTo(BURST);
            }
            System.out.printf("mixed versions: %d keys decided by 6 members of two Tollgate versions over 5 phases, "
                    + "%d tokens granted on each of a burst of %d, every answer exact; %.1f s%n",
                    keys.size(), BURST, BURST, (System.nanoTime() - start) / 1e9);
            s0.close();
            s2.close();
        } finally {
            for (TollgateMemberProcess process : processes) {
                process.close();
            }
            here.forEach(member -> member.getLifecycleService().terminate());
        }
    }

    /**
     * While an old member is in the cluster a refund is not sent at all: it fails here and changes nothing. Sent to an
     * old member anyway (as in the moment before its join is seen), it fails there, and the member decides on.
     */
    private static void oldMembersGetNoRefunds(HazelcastInstance m0, HazelcastBucketStore s0, UUID oldId) throws Exception {
        String key = "mixed-refund-probe:" + UUID.randomUUID();
        for (int i = 0; !owner(m0, key).equals(oldId); i++) {
            key = "mixed-refund-probe:" + i;
        }
        assertThat(s0.acquire(key, BUCKET, 2).toCompletableFuture().get(30, TimeUnit.SECONDS).allowed()).isTrue();
        String probe = key;
        assertThatThrownBy(() -> s0.refund(probe, BUCKET, 1).toCompletableFuture().get(30, TimeUnit.SECONDS))
                .hasMessageContaining("no refunds");
        EntryCalls calls = EntryCalls.of(m0.getMap(BucketMapConfig.DEFAULT_MAP_NAME));
        assertThatThrownBy(() -> calls.call(probe, RefundProcessor.create(BUCKET, 1, true), OutcomeWire::read).get(30, TimeUnit.SECONDS))
                .as("an old member cannot read a refund").isInstanceOf(java.util.concurrent.ExecutionException.class);
        Outcome after = s0.acquire(probe, BUCKET, 1).toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertThat(after.allowed()).as("the old member still decides, and nothing was given back").isTrue();
        assertThat(after.remaining()).isEqualTo(BURST - 3);
    }

    /** Decides, on every key and from each member in turn, one request and then a batch of two, each of 1 token. */
    private void decideEveryKey(String phase, List<String> keys, Decider... deciders) throws Exception {
        long grantedBefore = granted.values().stream().mapToLong(Long::longValue).sum();
        for (String key : keys) {
            for (Decider decider : deciders) {
                for (long[] costs : new long[][] {{1}, {1, 1}}) {
                    long[] answers = decider.decide(key, costs);
                    assertThat(answers).as("%s: %s deciding %s", phase, decider.name(), key).containsExactly(expected(key, costs));
                }
            }
        }
        System.out.printf("mixed versions, %s: %d tokens granted%n", phase,
                granted.values().stream().mapToLong(Long::longValue).sum() - grantedBefore);
    }

    /** @return what exact answers to {@code costs} on {@code key} are, and counts them in */
    private long[] expected(String key, long[] costs) {
        long[] expected = new long[costs.length];
        for (int i = 0; i < costs.length; i++) {
            long tokens = left.get(key);
            if (tokens >= costs[i]) {
                left.put(key, tokens - costs[i]);
                granted.merge(key, costs[i], Long::sum);
                expected[i] = tokens - costs[i];
            } else {
                expected[i] = -1;
            }
        }
        return expected;
    }

    /** One member deciding. */
    interface Decider {
        String name();

        long[] decide(String key, long[] costs) throws Exception;
    }

    private static Decider remote(String name, TollgateMemberProcess process) {
        return new Decider() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public long[] decide(String key, long[] costs) throws Exception {
                return process.decide(key, BURST, costs);
            }
        };
    }

    private static Decider local(String name, HazelcastBucketStore store) {
        return new Decider() {
            @Override
            public String name() {
                return name + " (this code, this JVM)";
            }

            @Override
            public long[] decide(String key, long[] costs) throws Exception {
                Outcome[] outcomes = costs.length == 1
                        ? new Outcome[] {store.acquire(key, BUCKET, costs[0]).toCompletableFuture().get(60, TimeUnit.SECONDS)}
                        : store.acquireAll(key, BUCKET, costs, new long[costs.length]).toCompletableFuture().get(60, TimeUnit.SECONDS);
                long[] answers = new long[outcomes.length];
                for (int i = 0; i < outcomes.length; i++) {
                    answers[i] = outcomes[i].allowed() ? outcomes[i].remaining() : -1;
                }
                return answers;
            }
        };
    }

    private Config config(int index, String zone) {
        return TollgateMemberMain.config(cluster, index, ports.get(index), addresses, zone);
    }

    /** @return {@code count} keys of this run whose partition {@code owner} owns */
    private static List<String> keys(HazelcastInstance master, UUID owner, int count) {
        List<String> keys = new ArrayList<>();
        for (int i = 0; keys.size() < count; i++) {
            String key = BucketKeys.of("mixed", owner + "-" + i);
            if (owner(master, key).equals(owner)) {
                keys.add(key);
            }
        }
        return keys;
    }

    private static UUID owner(HazelcastInstance master, String key) {
        return master.getPartitionService().getPartition(key).getOwner().getUuid();
    }

    /** @return how many partitions each pair of owner and first backup has, by the members' names */
    private Map<String, Integer> pairs(HazelcastInstance master) {
        Map<String, Integer> pairs = new TreeMap<>();
        var partitions = ((HazelcastInstanceProxy) master).getOriginal().node.getPartitionService();
        for (int partition = 0; partition < partitions.getPartitionCount(); partition++) {
            var replicas = partitions.getPartition(partition);
            pairs.merge(name(replicas.getReplica(0)) + " -> " + name(replicas.getReplica(1)), 1, Integer::sum);
        }
        return pairs;
    }

    private String name(com.hazelcast.internal.partition.PartitionReplica replica) {
        return replica == null ? "none" : names.getOrDefault(replica.uuid(), replica.toString());
    }

    private void awaitSettled(HazelcastInstance master, int size) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!HazelcastTestCluster.settled(master, size)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the cluster did not settle at " + size + " members within 120 s; it has "
                        + master.getCluster().getMembers().stream().map(m -> names.getOrDefault(m.getUuid(), m.toString()))
                        .collect(Collectors.toList()));
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
    }

    private static void awaitVersion(String why, HazelcastBucketStore store, int version) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (store.wireVersion() != version && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(20);
        }
        assertThat(store.wireVersion()).as(why).isEqualTo(version);
    }
}
