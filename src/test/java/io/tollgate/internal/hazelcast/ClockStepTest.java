package io.tollgate.internal.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.core.HazelcastInstance;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.testing.Await;
import io.tollgate.testing.HazelcastTestCluster;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The owner's clock steps backwards or forwards, or a bucket moves to a member whose clock is behind:
 * counted in tokens, no step mints more than the bucket holds, and a step backwards mints none.
 * Burst 10, 1 token per second; the cluster's clocks are driven by hand.
 */
@Tag("hazelcast")
@Execution(ExecutionMode.CONCURRENT) // mostly waits: runs beside other classes
@ResourceLock("ClockStepTest") // and its own tests one after another
class ClockStepTest {

    private static final TokenBucket BUCKET = TokenBucket.of(Limit.of(10, 1, Duration.ofSeconds(1)));
    private static HazelcastTestCluster cluster;
    private static int keys;

    @BeforeAll
    static void start() {
        cluster = HazelcastTestCluster.start(3);
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @Test
    void aClockSteppingBackwardsMintsNothing() throws Exception {
        String key = keyOwnedBy(1);
        HazelcastBucketStore store = store();
        assertThat(take(store, key)).isEqualTo(10);

        cluster.stepClock(1, Duration.ofHours(-1));
        cluster.clock().advance(Duration.ofSeconds(5));
        assertThat(take(store, key)).as("5 s later, on an owner whose clock went back 1 h").isZero();

        cluster.stepClock(1, Duration.ofHours(1));
        assertThat(take(store, key)).as("once its clock is right again: the 5 s of refill, no more").isEqualTo(5);
        System.out.println("clock step backwards by 1 h: 0 tokens while behind, then 5 for the 5 s that passed");
    }

    @Test
    void aClockSteppingForwardsMintsAtMostOneBurstAndTheBucketPaysItBack() throws Exception {
        String key = keyOwnedBy(1);
        HazelcastBucketStore store = store();
        assertThat(take(store, key)).isEqualTo(10);

        cluster.stepClock(1, Duration.ofHours(1));
        assertThat(take(store, key)).as("an hour ahead: refilled, but never beyond the burst").isEqualTo(10);

        cluster.stepClock(1, Duration.ofHours(-1));
        cluster.clock().advance(Duration.ofSeconds(30));
        assertThat(take(store, key)).as("back to the right time: nothing until the clock passes the stored time").isZero();
        cluster.clock().advance(Duration.ofHours(1));
        assertThat(take(store, key)).isEqualTo(10);
        System.out.println("clock step forwards by 1 h: one extra burst (10), then 0 until the clock caught up again");
    }

    @Test
    void aBucketMovingToAMemberWithASlowerClockMintsNothing() throws Exception {
        try (HazelcastTestCluster own = HazelcastTestCluster.start(3)) {
            String key = null;
            for (int i = 0; key == null; i++) {
                String candidate = BucketKeys.of("clock", "moving-" + i);
                if (own.ownerOf(candidate) == own.member(2)) {
                    key = candidate;
                }
            }
            HazelcastBucketStore store = new HazelcastBucketStore(own.member(0), BucketMapConfig.DEFAULT_MAP_NAME, true);
            assertThat(take(store, key)).isEqualTo(10);
            // A synchronous backup is acknowledged within Hazelcast's backup timeout, not always before the call
            // returns: the bucket's backup must be there before its owner dies.
            Await.until("the bucket's backup on another member", Duration.ofSeconds(30), () ->
                    own.member(0).getMap(BucketMapConfig.DEFAULT_MAP_NAME).getLocalMapStats().getBackupEntryCount()
                            + own.member(1).getMap(BucketMapConfig.DEFAULT_MAP_NAME).getLocalMapStats().getBackupEntryCount() >= 1);
            own.stepClock(0, Duration.ofMinutes(-1));
            own.stepClock(1, Duration.ofMinutes(-1));
            own.member(2).getLifecycleService().terminate();
            own.awaitSize(2);

            own.clock().advance(Duration.ofSeconds(20));
            assertThat(take(store, key)).as("20 s later, on a new owner whose clock is 1 min behind").isZero();
            own.clock().advance(Duration.ofSeconds(45));
            assertThat(take(store, key)).as("once the new owner's clock passes the stored time: 5 s of refill").isEqualTo(5);
            System.out.println("owner died, its bucket moved to a member 1 min behind: 0 tokens until that clock caught up, then 5");
        }
    }

    private static HazelcastBucketStore store() {
        return new HazelcastBucketStore(cluster.member(0), BucketMapConfig.DEFAULT_MAP_NAME, true);
    }

    /** A fresh key whose bucket member {@code index} owns. */
    private static String keyOwnedBy(int index) {
        HazelcastInstance member = cluster.member(index);
        while (true) {
            String key = BucketKeys.of("clock", "key-" + keys++);
            if (cluster.ownerOf(key) == member) {
                return key;
            }
        }
    }

    /** Takes tokens one by one until denied: the tokens the bucket held. */
    private static int take(HazelcastBucketStore store, String key) throws Exception {
        int taken = 0;
        while (taken <= 100 && store.acquire(key, BUCKET, 1).toCompletableFuture().get(60, TimeUnit.SECONDS).allowed()) {
            taken++;
        }
        return taken;
    }
}
