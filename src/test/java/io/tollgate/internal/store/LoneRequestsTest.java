package io.tollgate.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.testing.Internals;
import io.tollgate.testing.TestClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A request for a key with no call in flight goes out alone, marked only by its key in a slot: it leaves no lane behind,
 * and a request for the same key meanwhile still waits for it and leaves with the next batch. The owner is an in-memory
 * bucket behind a gate that answers, or fails, each call when the test says so.
 */
class LoneRequestsTest {

    private static final TokenBucket BUCKET = TokenBucket.of(Limit.of(100, 1, Duration.ofHours(1)));

    private final GatedStore owner = new GatedStore(new InMemoryBucketStore(new TestClock(1_000_000_000_000L), 1_000));
    private final CoalescingStore store = new CoalescingStore(owner, System::nanoTime, false);

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void aLoneRequestLeavesNoLaneAndItsAnswerFreesTheSlot() throws Exception {
        CompletableFuture<Outcome> first = acquire("k");
        assertThat(Internals.mapSize(store, "lanes")).isZero();
        owner.answer(1);
        assertThat(first.get().remaining()).isEqualTo(99);
        CompletableFuture<Outcome> second = acquire("k"); // alone again: nothing waited for the first
        assertThat(Internals.mapSize(store, "lanes")).isZero();
        owner.answer(1);
        assertThat(second.get().remaining()).isEqualTo(98);
        assertThat(owner.calls).isEqualTo(2);
    }

    @Test
    void requestsForAKeyInFlightAloneWaitAndLeaveTogetherWhenItReturns() throws Exception {
        CompletableFuture<Outcome> first = acquire("k");
        CompletableFuture<Outcome> second = acquire("k");
        CompletableFuture<Outcome> third = acquire("k");
        assertThat(second).isNotDone();
        assertThat(owner.calls).isEqualTo(1);
        owner.answer(1);
        owner.answer(1, 1); // one call for both
        assertThat(first.get().remaining()).isEqualTo(99);
        assertThat(second.get().remaining()).isEqualTo(98);
        assertThat(third.get().remaining()).isEqualTo(97);
        assertThat(owner.calls).isEqualTo(2);
        awaitNoLanes();
    }

    @Test
    void keysOfOneSlotAreEachDecidedAndEachStillGathersItsOwnRequests() throws Exception {
        String other = sharingTheSlotOf("k");
        CompletableFuture<Outcome> k = acquire("k");
        CompletableFuture<Outcome> o = acquire(other); // its slot is taken: out alone in a lane of its own
        assertThat(Internals.mapSize(store, "lanes")).isEqualTo(1);
        CompletableFuture<Outcome> kAgain = acquire("k");
        CompletableFuture<Outcome> oAgain = acquire(other);
        assertThat(owner.calls).isEqualTo(2);
        owner.answer(1); // k's
        owner.answer(1); // the other's
        owner.answer(1); // k's second and the other's second, each in its own call
        owner.answer(1);
        assertThat(k.get().remaining()).isEqualTo(99);
        assertThat(kAgain.get().remaining()).isEqualTo(98);
        assertThat(o.get().remaining()).isEqualTo(99);
        assertThat(oAgain.get().remaining()).isEqualTo(98);
        assertThat(owner.calls).isEqualTo(4);
        awaitNoLanes();
    }

    @Test
    void aLoneCallThatFailsFailsItsCallerAndTheRequestsThatWaitedForItStillLeave() throws Exception {
        CompletableFuture<Outcome> first = acquire("k");
        CompletableFuture<Outcome> waited = acquire("k");
        owner.fail(new IllegalStateException("the owner is gone"));
        assertThatThrownBy(first::get).isInstanceOf(ExecutionException.class).hasRootCauseMessage("the owner is gone");
        owner.answer(1);
        assertThat(waited.get().remaining()).isEqualTo(99);
        awaitNoLanes();
        CompletableFuture<Outcome> after = acquire("k"); // the slot is free: alone again
        assertThat(Internals.mapSize(store, "lanes")).isZero();
        owner.answer(1);
        assertThat(after.get().remaining()).isEqualTo(98);
    }

    @Test
    void aStoreThatThrowsAtOnceFailsTheRequestAndFreesTheSlot() throws Exception {
        owner.throwNext = true;
        assertThatThrownBy(() -> acquire("k").get()).hasRootCauseMessage("no store");
        CompletableFuture<Outcome> after = acquire("k");
        assertThat(Internals.mapSize(store, "lanes")).isZero();
        owner.answer(1);
        assertThat(after.get().remaining()).isEqualTo(99);
    }

    @Test
    void manyThreadsOnKeysSharingSlotsAreEachAnsweredAndGrantedExactlyTheBurst() throws Exception {
        TokenBucket bucket = TokenBucket.of(Limit.of(150, 1, Duration.ofHours(1)));
        List<String> keys = new ArrayList<>(List.of("k", sharingTheSlotOf("k"), "a", "b", "c", "d", "e", "f"));
        SlowStore slow = new SlowStore(new InMemoryBucketStore(new TestClock(1_000_000_000_000L), 1_000));
        CoalescingStore coalescing = new CoalescingStore(slow, System::nanoTime, false);
        ExecutorService callers = Executors.newFixedThreadPool(16);
        try {
            List<Future<Map<String, Integer>>> threads = new ArrayList<>();
            for (int t = 0; t < 16; t++) {
                int first = t;
                threads.add(callers.submit(() -> {
                    Map<String, Integer> allowed = new HashMap<>();
                    for (int i = 0; i < 100; i++) {
                        String key = keys.get((first + i) % keys.size());
                        if (coalescing.acquire(key, bucket, 1).toCompletableFuture().get(30, TimeUnit.SECONDS).allowed()) {
                            allowed.merge(key, 1, Integer::sum);
                        }
                    }
                    return allowed;
                }));
            }
            Map<String, Integer> allowed = new HashMap<>();
            for (Future<Map<String, Integer>> thread : threads) {
                thread.get(60, TimeUnit.SECONDS).forEach((key, n) -> allowed.merge(key, n, Integer::sum));
            }
            // 200 requests for each key, 150 tokens in each bucket
            keys.forEach(key -> assertThat(allowed.get(key)).as(key).isEqualTo(150));
        } finally {
            callers.shutdownNow();
            coalescing.close();
            slow.close();
        }
    }

    /** @return a key other than {@code key} whose slot is the same */
    private static String sharingTheSlotOf(String key) {
        for (int i = 0; ; i++) {
            String other = "other-" + i;
            if (CoalescingStore.slot(other) == CoalescingStore.slot(key)) {
                return other;
            }
        }
    }

    private CompletableFuture<Outcome> acquire(String key) {
        return store.acquire(key, BUCKET, 1).toCompletableFuture();
    }

    private void awaitNoLanes() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (Internals.mapSize(store, "lanes") > 0) {
            assertThat(System.nanoTime() - deadline).as("the lane was not dropped within 30 s").isNegative();
            TimeUnit.MILLISECONDS.sleep(5);
        }
    }

    /** Holds each call until the test answers or fails it; it tells coalescing of an answer as the interface does. */
    private static final class GatedStore implements BatchingBucketStore {
        private final InMemoryBucketStore memory;
        private final BlockingQueue<Call> pending = new LinkedBlockingQueue<>();
        volatile int calls;
        volatile boolean throwNext;

        GatedStore(InMemoryBucketStore memory) {
            this.memory = memory;
        }

        @Override
        public CompletionStage<Outcome> acquire(String key, TokenBucket bucket, long cost) {
            if (throwNext) {
                throwNext = false;
                throw new IllegalStateException("no store");
            }
            return this.<Outcome[]>call(key, bucket, new long[] {cost}).thenApply(outcomes -> outcomes[0]);
        }

        @Override
        public CompletionStage<Outcome[]> acquireAll(String key, TokenBucket bucket, long[] costs, long[] waitedNanos) {
            return call(key, bucket, costs.clone());
        }

        private <T> CompletableFuture<Outcome[]> call(String key, TokenBucket bucket, long[] costs) {
            calls++;
            CompletableFuture<Outcome[]> answer = new CompletableFuture<>();
            pending.add(new Call(key, bucket, costs, answer));
            return answer;
        }

        /** Waits for the next call, checks its costs, and answers it from the bucket. */
        void answer(long... costs) throws InterruptedException {
            Call call = next();
            assertThat(call.costs).containsExactly(costs);
            call.answer.complete(memory.acquireAll(call.key, call.bucket, costs, new long[costs.length]).toCompletableFuture().join());
        }

        /** Waits for the next call and fails it. */
        void fail(RuntimeException failure) throws InterruptedException {
            next().answer.completeExceptionally(failure);
        }

        private Call next() throws InterruptedException {
            Call call = pending.poll(30, TimeUnit.SECONDS);
            assertThat(call).as("a call to the owner").isNotNull();
            return call;
        }

        @Override
        public void close() {
        }

        private record Call(String key, TokenBucket bucket, long[] costs, CompletableFuture<Outcome[]> answer) {
        }
    }
}
