package io.tollgate.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.testing.Internals;
import io.tollgate.testing.TestClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Tokens reserved ahead for a hot key: granted here without a round trip, never more than the owner took from
 * the bucket, dropped when the lease ends. The owner is an in-memory bucket behind a gate that answers each call
 * only when the test says so; the reserve's lease runs on a clock the test moves.
 */
class ReservesTest {

    private static final long MILLIS = 1_000_000;

    private final TestClock clock = new TestClock(1_000_000_000_000L);
    private final AtomicLong nanos = new AtomicLong();
    private final GatedStore owner = new GatedStore(new InMemoryBucketStore(clock, 1_000));
    private final CoalescingStore store = new CoalescingStore(owner, nanos::get, true);

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void aHotKeyIsGrantedFromItsReserveWithoutARoundTripUntilTheLeaseEnds() throws Exception {
        TokenBucket bucket = TokenBucket.of(Limit.of(1_000, 1, Duration.ofHours(1)));
        CompletableFuture<Outcome> first = acquire(bucket);
        List<CompletableFuture<Outcome>> queued = acquire(bucket, 5);
        owner.answer(new long[] {1});
        assertThat(first.get().remaining()).isEqualTo(999);
        // five waited: a hot key. They leave as one batch, with a reserve of twice their tokens.
        owner.answer(new long[] {1, 1, 1, 1, 1, 10});
        for (int i = 0; i < 5; i++) {
            assertThat(queued.get(i).get().remaining()).isEqualTo(998 - i);
        }
        // 1 000 - 1 - 5 - 10 = 984 left in the bucket; 10 here. The next five are granted here at once.
        for (int i = 1; i <= 5; i++) {
            Outcome granted = acquire(bucket).getNow(null);
            assertThat(granted).isNotNull();
            assertThat(granted.allowed()).isTrue();
            assertThat(granted.remaining()).isEqualTo(984 + 10 - i);
        }
        // half of the reserve is used: the next one, twice the five granted since, is asked for ahead
        owner.awaitCall(new long[] {10});
        for (int i = 0; i < 5; i++) {
            assertThat(acquire(bucket).getNow(null).allowed()).isTrue();
        }
        CompletableFuture<Outcome> waiting = acquire(bucket); // the reserve is spent; the next one is on its way
        assertThat(waiting).isNotDone();
        owner.answer(new long[] {10});
        // granted from the new reserve: 1 000 - 26 taken by the owner, 9 of them still here
        assertThat(waiting.get().remaining()).isEqualTo(974 + 9);
        assertThat(owner.calls()).isEqualTo(3);

        nanos.addAndGet(CoalescingStore.LEASE_MILLIS * MILLIS); // the lease ends: the 9 go back to the bucket
        owner.answer(new long[] {-9});
        awaitNoLanes(); // and the key, idle here, is forgotten: it is cold again
        CompletableFuture<Outcome> afterLease = acquire(bucket);
        assertThat(afterLease).isNotDone();
        owner.answer(new long[] {1});
        assertThat(afterLease.get().remaining()).isEqualTo(982);
        assertThat(owner.calls()).isEqualTo(5);
        // of the 1 000 tokens: 18 granted, 982 in the bucket
        assertThat(owner.memory.acquireNow("k", bucket, 0).remaining()).isEqualTo(982);
    }

    @Test
    void aRequestAfterTheLeaseEndedIsDecidedAfterTheReserveWentBack() throws Exception {
        TokenBucket bucket = TokenBucket.of(Limit.of(1_000, 1, Duration.ofHours(1)));
        holdAReserveOf10(bucket);
        assertThat(acquire(bucket).getNow(null).remaining()).as("granted from the reserve").isEqualTo(984 + 9);
        nanos.addAndGet(CoalescingStore.LEASE_MILLIS * MILLIS); // a pause: nobody used the 9 left within the lease
        CompletableFuture<Outcome> afterPause = acquire(bucket);
        owner.answer(new long[] {-9}); // however the lease's end was noticed (this request, or the timer), the 9 go back first
        owner.answer(new long[] {1});
        assertThat(afterPause.get().remaining()).as("1 000 less the 8 granted").isEqualTo(992);
    }

    @Test
    void aRequestTheOwnerDecidesWhileAReserveIsHeldHereCountsTheReserve() throws Exception {
        TokenBucket bucket = TokenBucket.of(Limit.of(1_000, 1, Duration.ofHours(1)));
        holdAReserveOf10(bucket);
        // 20 is more than the 10 held here: the owner decides it, and has 984 - 20 left; with the 10 held, 974
        CompletableFuture<Outcome> large = store.acquire("k", bucket, 20).toCompletableFuture();
        owner.answer(new long[] {20});
        assertThat(large.get().allowed()).isTrue();
        assertThat(large.get().remaining()).as("1 000 less the 26 granted").isEqualTo(974);
        assertThat(owner.memory.acquireNow("k", bucket, 0).remaining()).isEqualTo(964);
    }

    @Test
    void aReserveOnItsWayWhenTheKeyIsForgottenIsNeverGrantedFrom() throws Exception {
        TokenBucket bucket = TokenBucket.of(Limit.of(1_000, 1, Duration.ofHours(1)));
        CompletableFuture<Outcome> first = acquire(bucket);
        List<CompletableFuture<Outcome>> queued = acquire(bucket, 5);
        owner.answer(new long[] {1});
        owner.awaitCall(new long[] {1, 1, 1, 1, 1, 10}); // the batch and its reserve, taken from the bucket as it was
        store.forget("k"); // the key is reset (or its rule changed) meanwhile
        owner.answer(new long[] {1, 1, 1, 1, 1, 10});
        assertThat(first.get().allowed()).isTrue();
        for (CompletableFuture<Outcome> request : queued) {
            assertThat(request.get().allowed()).isTrue();
        }
        CompletableFuture<Outcome> next = acquire(bucket);
        assertThat(next).as("granted from the reserve asked for before the key was forgotten").isNotDone();
        owner.answer(new long[] {1});
        assertThat(next.get().remaining()).isEqualTo(1_000 - 6 - 10 - 1); // the 10 were dropped, never granted
    }

    @Test
    void aRuleWithABurstUnder64NeverReserves() throws Exception {
        TokenBucket bucket = TokenBucket.of(Limit.of(63, 1, Duration.ofHours(1)));
        CompletableFuture<Outcome> first = acquire(bucket);
        List<CompletableFuture<Outcome>> queued = acquire(bucket, 10);
        owner.answer(new long[] {1});
        owner.answer(new long[] {1, 1, 1, 1, 1, 1, 1, 1, 1, 1});
        assertThat(first.get().remaining()).isEqualTo(62);
        assertThat(queued.get(9).get().remaining()).isEqualTo(52);
        CompletableFuture<Outcome> next = acquire(bucket);
        assertThat(next).isNotDone(); // nothing held here: every decision is the owner's
        owner.answer(new long[] {1});
        assertThat(next.get().remaining()).isEqualTo(51);
    }

    @Test
    void aReserveTheOwnerCannotGrantIsNotTakenAndTheRequestsBeforeItAreDecidedAsUsual() throws Exception {
        TokenBucket bucket = TokenBucket.of(Limit.of(64, 1, Duration.ofHours(1)));
        owner.memory.acquireNow("k", bucket, 58); // 6 left
        CompletableFuture<Outcome> first = acquire(bucket);
        List<CompletableFuture<Outcome>> queued = acquire(bucket, 4);
        owner.answer(new long[] {1});
        owner.answer(new long[] {1, 1, 1, 1, 4}); // a reserve of 4 (a sixteenth of 64): only 1 token is left for it
        assertThat(first.get().allowed()).isTrue();
        for (CompletableFuture<Outcome> request : queued) {
            assertThat(request.get().allowed()).isTrue();
        }
        CompletableFuture<Outcome> last = acquire(bucket);
        assertThat(last).isNotDone(); // no reserve was granted
        owner.answer(new long[] {1});
        assertThat(last.get().allowed()).isTrue();
        assertThat(last.get().remaining()).isZero();
    }

    @Test
    void aKeyWhoseRequestsComeOneAtATimeButFastIsHotAfterAStreakOfThem() throws Exception {
        TokenBucket bucket = TokenBucket.of(Limit.of(1_000, 1, Duration.ofHours(1)));
        oneAtATime(bucket, HotStreaks.STREAK - 1, HotStreaks.GAP_NANOS); // nothing ever waits
        // the eighth in a row, each within 2 ms of the one before: hot, as if four had waited. A reserve of twice that.
        CompletableFuture<Outcome> eighth = acquire(bucket);
        owner.answer(new long[] {1, 2 * CoalescingStore.HOT_DEMAND});
        assertThat(eighth.get().remaining()).isEqualTo(992);
        long calls = owner.calls();
        for (int i = 1; i <= 4; i++) { // granted here, at once, from the 8 held
            Outcome granted = acquire(bucket).getNow(null);
            assertThat(granted).as("granted from the reserve").isNotNull();
            assertThat(granted.remaining()).isEqualTo(984 + 8 - i);
        }
        assertThat(owner.calls()).as("the next reserve, asked for when half of this one is used").isEqualTo(calls + 1);
        owner.answer(new long[] {8});
        // of the 1 000 tokens: 12 granted, 4 + 8 held here, 976 in the bucket
        assertThat(owner.memory.acquireNow("k", bucket, 0).remaining()).isEqualTo(976);
    }

    @Test
    void aKeyWhoseRequestsComeOneAtATimeNeverReservesWhereTheStoreTakesNoRefunds() throws Exception {
        owner.refunds = false; // a member of an older Tollgate in the cluster: a reserve could not go back after a pause
        TokenBucket bucket = TokenBucket.of(Limit.of(1_000, 1, Duration.ofHours(1)));
        oneAtATime(bucket, 4 * HotStreaks.STREAK, 0);
        assertThat(owner.calls()).isEqualTo(4 * HotStreaks.STREAK);
    }

    @Test
    void aKeyWhoseRequestsComeMoreThan2MillisecondsApartNeverReserves() throws Exception {
        TokenBucket bucket = TokenBucket.of(Limit.of(1_000, 1, Duration.ofHours(1)));
        oneAtATime(bucket, 4 * HotStreaks.STREAK, HotStreaks.GAP_NANOS + 1);
        assertThat(owner.calls()).isEqualTo(4 * HotStreaks.STREAK);
    }

    @Test
    void manyThreadsOnAHotKeyAreGrantedExactlyWhatTheBucketHeld() throws Exception {
        TokenBucket bucket = TokenBucket.of(Limit.of(5_000, 1, Duration.ofHours(1)));
        SlowStore slow = new SlowStore(new InMemoryBucketStore(clock, 1_000));
        CountingStore counting = new CountingStore(slow);
        CoalescingStore reserving = new CoalescingStore(counting, nanos::get, true); // the lease never ends here
        int threads = 16;
        try {
            long total = HotKeyLoad.run(reserving, "hot", bucket, threads, 200);
            long rest = HotKeyLoad.drain(reserving, "hot", bucket);
            System.out.printf("reserves: %d requests, %d tokens granted, %d store calls%n", threads * 200 + rest + 1,
                    total + rest, counting.calls.get());
            assertThat(total + rest).isEqualTo(5_000);
            assertThat(counting.calls.get()).isLessThan((threads * 200L + rest) / 4);
        } finally {
            reserving.close();
            slow.close();
        }
    }

    /** Takes a reserve of 10 from a full bucket of 1 000: 6 requests, the last 5 of them hot (1 000 - 6 - 10 = 984 left). */
    private void holdAReserveOf10(TokenBucket bucket) throws Exception {
        CompletableFuture<Outcome> first = acquire(bucket);
        List<CompletableFuture<Outcome>> queued = acquire(bucket, 5);
        owner.answer(new long[] {1});
        owner.answer(new long[] {1, 1, 1, 1, 1, 10});
        assertThat(first.get().allowed()).isTrue();
        assertThat(queued.get(4).get().remaining()).isEqualTo(994);
    }

    /**
     * {@code n} requests of cost 1 from a full bucket of 1 000, each answered by the owner before the next is made,
     * {@code gapNanos} apart.
     */
    private void oneAtATime(TokenBucket bucket, int n, long gapNanos) throws Exception {
        for (int i = 1; i <= n; i++) {
            CompletableFuture<Outcome> alone = acquire(bucket);
            owner.answer(new long[] {1});
            assertThat(alone.get().remaining()).isEqualTo(1_000 - i);
            nanos.addAndGet(gapNanos);
        }
    }

    private void awaitNoLanes() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (Internals.mapSize(store, "lanes") > 0) {
            assertThat(System.nanoTime() - deadline).as("the lane was not dropped within 30 s").isNegative();
            TimeUnit.MILLISECONDS.sleep(5);
        }
    }

    private CompletableFuture<Outcome> acquire(TokenBucket bucket) {
        return store.acquire("k", bucket, 1).toCompletableFuture();
    }

    /** @return {@code n} requests of cost 1, made one after another */
    private List<CompletableFuture<Outcome>> acquire(TokenBucket bucket, int n) {
        List<CompletableFuture<Outcome>> made = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            made.add(acquire(bucket));
        }
        return made;
    }

    /** Holds each call until the test answers it, and checks what it carried. */
    private static final class GatedStore implements BatchingBucketStore {
        final InMemoryBucketStore memory;
        /** Whether it takes refunds (they are gated like any call). */
        volatile boolean refunds = true;
        private final BlockingQueue<Call> pending = new LinkedBlockingQueue<>();
        private final AtomicLong calls = new AtomicLong();
        /** A call awaited and checked, not answered yet. */
        private Call held;

        GatedStore(InMemoryBucketStore memory) {
            this.memory = memory;
        }

        @Override
        public CompletionStage<Outcome> acquire(String key, TokenBucket bucket, long cost) {
            CompletableFuture<Outcome[]> all = new CompletableFuture<>();
            enqueue(new long[] {cost}, () -> all.complete(new Outcome[] {memory.acquireNow(key, bucket, cost)}));
            return all.thenApply(outcomes -> outcomes[0]);
        }

        @Override
        public boolean takesRefunds() {
            return refunds;
        }

        /** A refund is a call of one negative cost. */
        @Override
        public CompletionStage<Outcome> refund(String key, TokenBucket bucket, long tokens) {
            CompletableFuture<Outcome> refunded = new CompletableFuture<>();
            enqueue(new long[] {-tokens}, () -> refunded.complete(memory.refund(key, bucket, tokens).toCompletableFuture().join()));
            return refunded;
        }

        @Override
        public CompletionStage<Outcome[]> acquireAll(String key, TokenBucket bucket, long[] costs, long[] waitedNanos) {
            CompletableFuture<Outcome[]> all = new CompletableFuture<>();
            long[] sent = costs.clone();
            enqueue(sent, () -> all.complete(memory.acquireAll(key, bucket, sent, waitedNanos).toCompletableFuture().join()));
            return all;
        }

        private void enqueue(long[] costs, Runnable answer) {
            calls.incrementAndGet();
            pending.add(new Call(costs, answer));
        }

        /** Waits for the next call (sent from another thread, perhaps), checks its costs, and leaves it pending. */
        void awaitCall(long[] costs) throws InterruptedException {
            Call call = pending.poll(30, TimeUnit.SECONDS);
            assertThat(call).as("a call to the owner").isNotNull();
            assertThat(call.costs).as(Arrays.toString(call.costs)).containsExactly(costs);
            held = call;
        }

        /** Waits for the next call unless one is held, checks its costs, and answers it. */
        void answer(long[] costs) throws InterruptedException {
            if (held == null) {
                awaitCall(costs);
            } else {
                assertThat(held.costs).containsExactly(costs);
            }
            Call call = held;
            held = null;
            call.answer.run();
        }

        long calls() {
            return calls.get();
        }

        @Override
        public void close() {
        }

        private record Call(long[] costs, Runnable answer) {
        }
    }
}
