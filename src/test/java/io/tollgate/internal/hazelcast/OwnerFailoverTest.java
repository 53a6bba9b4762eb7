package io.tollgate.internal.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.core.HazelcastInstance;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.testing.HazelcastTestCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/** A member that dies takes no bucket with it: the backup replica carries the charged state on. */
@Tag("hazelcast")
@Execution(ExecutionMode.CONCURRENT) // mostly waits: runs beside other classes
@ResourceLock("OwnerFailoverTest") // and its own tests one after another
class OwnerFailoverTest {

    @Test
    void bucketsSurviveTheTerminationOfTheirOwner() throws Exception {
        try (HazelcastTestCluster cluster = HazelcastTestCluster.start(3)) {
            TokenBucket bucket = TokenBucket.of(Limit.of(10, 1, Duration.ofHours(1)));
            List<String> keys = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                keys.add(BucketKeys.of("failover", "key-" + i));
            }
            HazelcastInstance survivor = cluster.member(0);
            HazelcastBucketStore store = new HazelcastBucketStore(survivor, BucketMapConfig.DEFAULT_MAP_NAME, true);
            for (String key : keys) {
                assertThat(acquire(store, key, bucket, 7).allowed()).isTrue();
            }
            // terminate (no graceful migration) a member that owns some of the buckets
            HazelcastInstance victim = cluster.member(1);
            long ownedByVictim = keys.stream().filter(k -> cluster.ownerOf(k) == victim).count();
            java.util.Map<String, Boolean> ownedBefore = new java.util.HashMap<>();
            keys.forEach(k -> ownedBefore.put(k, cluster.ownerOf(k) == victim));
            victim.getLifecycleService().terminate();
            cluster.awaitSize(2);
            int intact = 0;
            List<String> changed = new ArrayList<>();
            for (String key : keys) {
                Outcome o = acquire(store, key, bucket, 0);
                if (o.remaining() == 3) {
                    intact++;
                } else {
                    changed.add(key + " (owned by " + (ownedBefore.get(key) ? "the terminated member" : "a survivor")
                            + ", partition " + survivor.getPartitionService().getPartition(key).getPartitionId() + "): " + o.remaining() + " left");
                }
            }
            changed.forEach(c -> System.out.println("owner failover: changed " + c));
            System.out.printf("owner failover: %d buckets, %d owned by the terminated member, %d intact afterwards%n",
                    keys.size(), ownedByVictim, intact);
            assertThat(ownedByVictim).isPositive();
            assertThat(intact).isEqualTo(keys.size());
        }
    }

    private static Outcome acquire(HazelcastBucketStore store, String key, TokenBucket bucket, long cost) throws Exception {
        return store.acquire(key, bucket, cost).toCompletableFuture().get(60, TimeUnit.SECONDS);
    }
}
