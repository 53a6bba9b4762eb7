package io.tollgate.internal.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.EntryProcessor;
import io.tollgate.Decision;
import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.limiter.Limiter;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.TestRules;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The warm-up at deployment on a slow start: every partition thread of one member is held busy for
 * several store timeouts while the warm-up's checks wait behind them. The warm-up waits until they are
 * answered instead of failing because they got there after a decision's deadline, and the first real
 * decision afterwards is answered by the store, not by the rule's {@code on-store-failure} policy.
 */
@Tag("hazelcast")
@Execution(ExecutionMode.CONCURRENT) // mostly waits: runs beside other classes
@ResourceLock("WarmUpTest") // and its own tests one after another
class WarmUpTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(1);

    private final RuleConfig rule = TestRules.read(Map.of("tollgate.rules.r.rate", "1/1h", "tollgate.rules.r.burst", "5",
            "tollgate.rules.r.on-store-failure", "deny")).rule("r");

    /**
     * A member first reading its cluster time just after a pause would adopt a value behind by the pause,
     * and apply decisions whose deadlines had passed: the warm-up's checks, which carry no deadline, make
     * every member that owns some of them read it while it runs normally.
     */
    @Test
    void theWarmUpMakesEveryOwnerReadItsClusterTimeBeforeAnyDeadlineReachesIt() throws Exception {
        try (HazelcastTestCluster cluster = HazelcastTestCluster.start(2)) {
            HazelcastInstance other = cluster.member(1);
            assertThat(ClusterTime.read(other)).as("before the warm-up").isFalse();
            HazelcastBucketStore store = new HazelcastBucketStore(cluster.member(0), BucketMapConfig.DEFAULT_MAP_NAME, true, TIMEOUT);
            store.warmUp(rule.bucket());
            assertThat(ClusterTime.read(other)).as("the other member, after the warm-up").isTrue();
            store.close();
        }
    }

    @Test
    void aWarmUpSlowerThanTheStoreTimeoutWaitsForTheStoreAndTheFirstDecisionIsTheStores() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (HazelcastTestCluster cluster = HazelcastTestCluster.start(2)) {
            HazelcastInstance slow = cluster.member(1);
            List<CompletableFuture<Object>> blockers = holdEveryPartitionThread(slow, release);
            HazelcastBucketStore store = new HazelcastBucketStore(cluster.member(0), BucketMapConfig.DEFAULT_MAP_NAME, true, TIMEOUT);

            long start = System.nanoTime();
            CompletableFuture<Void> warmUp = CompletableFuture.runAsync(() -> {
                try {
                    store.warmUp(rule.bucket());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            TimeUnit.MILLISECONDS.sleep(3 * TIMEOUT.toMillis()); // the checks on the held member wait three timeouts
            assertThat(warmUp).as("the warm-up waits for the held member").isNotDone();
            release.countDown();
            for (CompletableFuture<Object> blocker : blockers) {
                blocker.get(30, TimeUnit.SECONDS);
            }
            warmUp.get(60, TimeUnit.SECONDS);
            System.out.printf("warm-up with one member's partition threads held for 3 store timeouts (%d ms): done after %d ms%n",
                    TIMEOUT.toMillis(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));

            String key = keyOwnedBy(cluster, slow);
            Decision first = new Limiter(store, TIMEOUT).check(rule, key, 1);
            assertThat(first.storeUnavailable()).as("the first decision was the store's").isFalse();
            assertThat(first.allowed()).isTrue();
            assertThat(first.remaining()).isEqualTo(4);
        } finally {
            release.countDown();
        }
    }

    /** Sends {@code member} one processor per partition it owns, each holding its partition thread until released. */
    private static List<CompletableFuture<Object>> holdEveryPartitionThread(HazelcastInstance member, CountDownLatch release) {
        List<CompletableFuture<Object>> blockers = new ArrayList<>();
        var map = member.<String, long[]>getMap(BucketMapConfig.DEFAULT_MAP_NAME);
        for (var partition : member.getPartitionService().getPartitions()) {
            if (partition.getOwner().localMember()) {
                String key = keyOfPartition(member, partition.getPartitionId());
                blockers.add(map.submitToKey(key, new Hold(release)).toCompletableFuture()); // local: the latch is not serialized
            }
        }
        return blockers;
    }

    private static String keyOfPartition(HazelcastInstance member, int partition) {
        for (int i = 0; ; i++) {
            String key = "hold-" + i;
            if (member.getPartitionService().getPartition(key).getPartitionId() == partition) {
                return key;
            }
        }
    }

    private static String keyOwnedBy(HazelcastTestCluster cluster, HazelcastInstance member) {
        for (int i = 0; ; i++) {
            String key = BucketKeys.of("r", "first-" + i);
            if (cluster.ownerOf(key) == member) {
                return key;
            }
        }
    }

    /** Holds its partition thread until released (at most 60 s); changes nothing, so sends the backups nothing. */
    private static final class Hold implements EntryProcessor<String, long[], Object> {
        private static final long serialVersionUID = 1L;
        private final transient CountDownLatch release;

        Hold(CountDownLatch release) {
            this.release = release;
        }

        @Override
        public Object process(Map.Entry<String, long[]> entry) {
            try {
                release.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return null;
        }

        @Override
        public EntryProcessor<String, long[], Object> getBackupProcessor() {
            return null;
        }
    }
}
