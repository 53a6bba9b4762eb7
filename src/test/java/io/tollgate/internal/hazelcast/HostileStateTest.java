package io.tollgate.internal.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.map.IMap;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.testing.HazelcastTestCluster;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Someone who can write to the cluster puts a bucket state of their own for a victim's key: a time
 * far in the future and no tokens, the write that used to deny the victim for good. The victim is
 * served again once the bucket has refilled from the owner's time. Burst 3, one token per second;
 * the cluster's clock is driven by hand.
 */
@Tag("hazelcast")
class HostileStateTest {

    private static final TokenBucket BUCKET = TokenBucket.of(Limit.of(3, 1, Duration.ofSeconds(1)));
    private static final long YEAR_2900 = Instant.parse("2900-01-01T00:00:00Z").toEpochMilli() * 1_000;
    private static HazelcastTestCluster cluster;

    @BeforeAll
    static void start() {
        cluster = HazelcastTestCluster.start(2);
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @Test
    void aFarFutureStateWrittenByAnotherProcessDeniesTheVictimOnlyUntilTheBucketRefills() throws Exception {
        String victim = BucketKeys.of("hostile", "victim");
        HazelcastBucketStore store = new HazelcastBucketStore(cluster.member(0), BucketMapConfig.DEFAULT_MAP_NAME, true);
        assertThat(take(store, victim)).isEqualTo(3);

        IMap<String, long[]> buckets = cluster.client().getMap(BucketMapConfig.DEFAULT_MAP_NAME);
        buckets.put(victim, new long[] {YEAR_2900, 1_000_000, 0});
        cluster.clock().advance(Duration.ofMinutes(5));
        assertThat(take(store, victim)).as("right after the hostile write, though 5 min passed: an empty bucket").isZero();

        cluster.clock().advance(Duration.ofSeconds(1));
        assertThat(take(store, victim)).as("one second later: the token that refilled since the owner restarted the bucket")
                .isEqualTo(1);
        cluster.clock().advance(Duration.ofSeconds(10));
        assertThat(take(store, victim)).as("and the burst, once it has refilled").isEqualTo(3);
        assertThat(buckets.get(victim)[0]).as("the stored time is the owner's again").isEqualTo(cluster.clock().nowMicros());
        System.out.println("hostile state dated 2900 put by a client: 0 tokens at once, 1 after 1 s, the burst of 3 after 10 s more");
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
