package io.tollgate.internal.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.internal.store.BucketStore;
import io.tollgate.internal.store.StoreStack;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.SharedCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Reserves taken under the old state of a bucket are never granted after it changes: on a real 3-member cluster
 * whose members each hold a reserve of a hot key, a rule change that lowers the burst (each member drops the rule's
 * local state, as {@code LiveRules} has it do) and a reset of the key ({@code RateLimitAdmin.reset}) are each
 * followed by grants that never exceed the new bucket (after a reset, from the moment every member heard of it). The cluster's clock stands still (no refill) and so does the
 * members' monotonic clock (no reserve runs out on its own), so the bound is the new bucket exactly; every member is
 * drained until the owner denies it, the others before the one that made the change.
 */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
class StaleReservesTest {

    /** A reserve is at most a sixteenth of the smallest burst: 64 tokens here. */
    private static final TokenBucket CONFIGURED = TokenBucket.of(Limit.of(1_024, 1, Duration.ofHours(1)));
    /** Lowered: reserves of at most 8 tokens. */
    private static final TokenBucket LOWERED = TokenBucket.of(Limit.of(128, 1, Duration.ofHours(1)));

    private final String map = "stale-reserves-" + UUID.randomUUID();
    private final String rule = "hot";
    private final String key = BucketKeys.of(rule, UUID.randomUUID().toString());
    private final AtomicLong nanos = new AtomicLong();
    private final List<BucketStore> members = new ArrayList<>();

    /** The members that heard of a reset made elsewhere (the topic {@code <map>-resets}) and forgot the key. */
    private final Set<Integer> heard = ConcurrentHashMap.newKeySet();

    StaleReservesTest(HazelcastTestCluster cluster) {
        for (var member : cluster.members()) {
            HazelcastBucketStore store = new HazelcastBucketStore(member, map, true);
            BucketStore stack = StoreStack.DEFAULT.over(store, nanos::get);
            int index = members.size();
            store.listenForResets(reset -> { // as the stack listens, and telling the test
                stack.forget(reset);
                heard.add(index);
            });
            members.add(stack);
        }
    }

    @AfterEach
    void close() {
        members.forEach(BucketStore::close);
    }

    @Test
    void aLoweredBurstIsNeverGrantedFromReservesTakenBefore() throws Exception {
        holdReserves(CONFIGURED);

        members.forEach(member -> member.forgetRule(rule)); // what every member does as it applies the change

        long granted = drain(LOWERED);
        System.out.printf("after the burst was lowered from 1024 to 128: %d granted%n", granted);
        assertThat(granted).isLessThanOrEqualTo(128).isGreaterThanOrEqualTo(128 - 3 * 8);
    }

    @Test
    void aResetKeyIsNeverGrantedFromReservesTakenBefore() throws Exception {
        holdReserves(CONFIGURED);

        members.get(0).reset(key);
        long start = System.nanoTime();
        while (!heard.containsAll(Set.of(1, 2))) { // until then, a member may still grant what it holds (README, "Operating keys")
            assertThat(System.nanoTime() - start).as("the other members hear of the reset").isLessThan(TimeUnit.SECONDS.toNanos(30));
            Thread.sleep(1);
        }

        long granted = drain(CONFIGURED);
        System.out.printf("after the reset: %d granted%n", granted);
        assertThat(granted).isLessThanOrEqualTo(1_024).isGreaterThanOrEqualTo(1_024 - 3 * 64);
    }

    /** Makes the key hot on every member until each holds a reserve: a request it grants without a round trip. */
    private void holdReserves(TokenBucket bucket) throws Exception {
        for (BucketStore member : members) {
            for (int round = 0; ; round++) {
                assertThat(round).as("rounds to get a reserve").isLessThan(100);
                List<CompletableFuture<Outcome>> burst = new ArrayList<>();
                for (int i = 0; i < 16; i++) { // the first goes out; the rest wait for it, and leave as one batch with a reserve
                    burst.add(member.acquire(key, bucket, 1).toCompletableFuture());
                }
                for (CompletableFuture<Outcome> request : burst) {
                    assertThat(request.get(30, TimeUnit.SECONDS).allowed()).isTrue();
                }
                CompletableFuture<Outcome> probe = member.acquire(key, bucket, 1).toCompletableFuture();
                boolean fromReserve = probe.isDone();
                assertThat(probe.get(30, TimeUnit.SECONDS).allowed()).isTrue();
                if (fromReserve) {
                    break;
                }
            }
        }
    }

    /** Takes tokens one by one on each member in turn (the last one first) until none grants any more; @return how many */
    private long drain(TokenBucket bucket) throws Exception {
        long granted = 0;
        boolean any = true;
        while (any) {
            any = false;
            for (int m = members.size() - 1; m >= 0; m--) {
                while (members.get(m).acquire(key, bucket, 1).toCompletableFuture().get(30, TimeUnit.SECONDS).allowed()) {
                    granted++;
                    any = true;
                }
            }
        }
        return granted;
    }
}
