package io.tollgate.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.internal.hazelcast.HazelcastBucketStore;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.SharedCluster;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A refund on a 3-member cluster goes to the owner, another member, whatever the coalescing store of the member
 * that charged holds in reserve: the owner's bucket gets exactly the refunded tokens, and the reserve is left as
 * it is.
 */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
class RefundReservesTest {

    /** A burst that reserves (a sixteenth, 64 tokens) and refills nothing while the test counts. */
    private static final TokenBucket BUCKET = TokenBucket.of(Limit.of(1024, 1, Duration.ofHours(1)));

    @Test
    void aRefundGivesTheOwnerItsTokensAndLeavesTheReserveOfTheMemberThatCharged(HazelcastTestCluster cluster) throws Exception {
        cluster.clock().set(2_800_000_000L * 1_000_000);
        String map = "refund-reserves-" + UUID.randomUUID();
        String key = BucketKeys.of("hot", "k");
        for (int i = 0; !cluster.member(0).getPartitionService().getPartition(key).getOwner().localMember(); i++) {
            key = BucketKeys.of("hot", "k" + i);
        }
        HazelcastBucketStore a = new HazelcastBucketStore(cluster.member(1), map, true);
        HazelcastBucketStore b = new HazelcastBucketStore(cluster.member(2), map, true);
        HazelcastBucketStore owner = new HazelcastBucketStore(cluster.member(0), map, true);
        long frozen = System.nanoTime();
        BucketStore charging = StoreStack.DEFAULT.over(a, () -> frozen); // the lease never ends: the reserve stays while the test counts
        BucketStore refunding = StoreStack.DEFAULT.over(b);
        try {
            awaitRefunds(refunding);
            long granted = HotKeyLoad.run(charging, key, BUCKET, 16, 20); // no denial: 16 x 20 x 2 on average
            long ownerHas = owner.acquire(key, BUCKET, 0).toCompletableFuture().get(30, TimeUnit.SECONDS).remaining();
            long reserved = 1024 - granted - ownerHas;
            // a reserve is 64 tokens at most and is topped up when half used: at most one and a half are held
            assertThat(reserved).as("what member 1 holds in reserve, taken from the bucket and not granted yet").isBetween(0L, 96L);

            Outcome refunded = refunding.refund(key, BUCKET, 100).toCompletableFuture().get(30, TimeUnit.SECONDS);
            assertThat(refunded.remaining()).as("the owner's bucket, 100 tokens fuller").isEqualTo(ownerHas + 100);
            assertThat(HotKeyLoad.drain(owner, key, BUCKET)).as("exactly what the owner holds, granted by the owner")
                    .isEqualTo(ownerHas + 100);
            long fromReserve = HotKeyLoad.drain(charging, key, BUCKET);
            assertThat(fromReserve).as("at most the reserve member 1 still held").isLessThanOrEqualTo(reserved);
            System.out.printf("refund beside a reserve: %d granted from member 1, %d in its reserve, 100 refunded through member 2, "
                    + "%d granted by the owner after, %d from the reserve%n", granted, reserved, ownerHas + 100, fromReserve);
        } finally {
            charging.close();
            refunding.close();
            owner.close();
        }
    }

    /** Refunds are sent once every member advertised that it reads them: a refund to a missing bucket tells. */
    private static void awaitRefunds(BucketStore store) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                store.refund("refund-reserves-probe:" + UUID.randomUUID(), BUCKET, 1).toCompletableFuture().get(30, TimeUnit.SECONDS);
                return;
            } catch (ExecutionException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(20);
            }
        }
    }
}
