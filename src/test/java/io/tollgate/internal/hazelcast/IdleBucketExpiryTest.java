package io.tollgate.internal.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryExpiredListener;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.testing.HazelcastTestCluster;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/** Buckets that went quiet leave the map: their time-to-live is the time until they are full again. */
@Tag("hazelcast")
@Execution(ExecutionMode.CONCURRENT) // mostly waits: runs beside other classes
@ResourceLock("IdleBucketExpiryTest") // and its own tests one after another
class IdleBucketExpiryTest {

    @Test
    void idleKeysExpireAndTheMapDoesNotGrow() throws Exception {
        try (HazelcastTestCluster cluster = HazelcastTestCluster.start(2)) { // its own: it runs on the system clock
            cluster.clock().useSystemTime();
            idleKeysExpire(cluster);
        }
    }

    private static void idleKeysExpire(HazelcastTestCluster cluster) throws Exception {
        IMap<String, long[]> map = cluster.member(0).getMap("tollgate-expiry-" + UUID.randomUUID());
        AtomicInteger added = new AtomicInteger();
        AtomicInteger expired = new AtomicInteger();
        map.addEntryListener((EntryAddedListener<String, long[]>) event -> added.incrementAndGet(), false);
        map.addEntryListener((EntryExpiredListener<String, long[]>) event -> expired.incrementAndGet(), false);
        HazelcastBucketStore store = new HazelcastBucketStore(cluster.member(1), map.getName(), true);
        // full again 50 ms after the last request; a slow rule's bucket must stay
        TokenBucket fast = TokenBucket.of(Limit.of(5, 100, Duration.ofSeconds(1)));
        TokenBucket slow = TokenBucket.of(Limit.of(5, 1, Duration.ofHours(1)));
        String keeper = BucketKeys.of("slow", "keeper");
        store.acquire(keeper, slow, 2).toCompletableFuture().get(30, TimeUnit.SECONDS);
        for (int i = 0; i < 300; i++) {
            store.acquire(BucketKeys.of("fast", "client-" + i), fast, 5).toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
        // each bucket was stored (an idle one may already be gone again on a slow machine: it lives 2 s)
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while ((added.get() < 301 || expired.get() < 300 || map.size() > 1) && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(200);
        }
        System.out.printf("idle expiry: 301 buckets stored (%d seen added), %d of 300 idle ones expired, %d left after the wait, "
                + "slow bucket kept=%s%n", added.get(), expired.get(), map.size() - (map.containsKey(keeper) ? 1 : 0),
                map.containsKey(keeper));
        assertThat(added.get()).as("buckets stored").isEqualTo(301);
        assertThat(expired.get()).as("idle buckets expired").isEqualTo(300);
        assertThat(map.size()).isEqualTo(1);
        assertThat(map.containsKey(keeper)).isTrue();
        assertThat(store.acquire(keeper, slow, 0).toCompletableFuture().get(30, TimeUnit.SECONDS).remaining()).isEqualTo(3);
        map.destroy();
    }
}
