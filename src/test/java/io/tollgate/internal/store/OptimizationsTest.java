package io.tollgate.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.testing.Internals;
import io.tollgate.testing.TestClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What coalescing and the denial cache save, counted in calls that reach the store. */
class OptimizationsTest {

    private final TestClock clock = TestClock.atRealTime();

    @Test
    void theDenialCacheAnswersAFloodLocallyUntilTheRetryAfterHasPassed() throws Exception {
        CountingStore counting = new CountingStore(new InMemoryBucketStore(clock, 1_000));
        DenialCache cache = new DenialCache(counting, 100, () -> clock.nowMicros() * 1_000);
        TokenBucket bucket = TokenBucket.of(Limit.of(5, 1, Duration.ofSeconds(1)));
        assertThat(acquire(cache, "k", bucket, 5).allowed()).isTrue();
        Outcome first = acquire(cache, "k", bucket, 2);
        assertThat(first.allowed()).isFalse();
        assertThat(first.retryAfterMicros()).isEqualTo(2_000_000);
        long before = counting.calls.get();
        for (int i = 0; i < 10_000; i++) {
            assertThat(acquire(cache, "k", bucket, 2 + i % 3).allowed()).isFalse();
        }
        assertThat(counting.calls.get()).isEqualTo(before); // not one reached the store
        clock.advance(Duration.ofMillis(500));
        Outcome aged = acquire(cache, "k", bucket, 2);
        assertThat(aged.retryAfterMicros()).isEqualTo(1_500_000);
        // a cheaper request is not covered by the denial: it asks the store (and gets its token)
        assertThat(acquire(cache, "k", bucket, 1).allowed()).isFalse();
        assertThat(counting.calls.get()).isEqualTo(before + 1);
        clock.advance(Duration.ofMillis(500));
        assertThat(acquire(cache, "k", bucket, 1).allowed()).isTrue();
        // once the retry-after has passed the store is asked again
        clock.advance(Duration.ofMillis(1_000));
        assertThat(acquire(cache, "k", bucket, 2).allowed()).isFalse(); // one token was taken at 1 s
        clock.advance(Duration.ofMillis(1_000));
        assertThat(acquire(cache, "k", bucket, 2).allowed()).isTrue();
        assertThat(acquire(cache, "other", bucket, 5).allowed()).isTrue();
    }

    @Test
    void theDenialCacheIsBounded() throws Exception {
        CountingStore counting = new CountingStore(new InMemoryBucketStore(clock, 10_000));
        DenialCache cache = new DenialCache(counting, 10, () -> clock.nowMicros() * 1_000);
        TokenBucket bucket = TokenBucket.of(Limit.of(1, 1, Duration.ofHours(1)));
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            keys.add("k" + i);
            acquire(cache, "k" + i, bucket, 1);
            assertThat(acquire(cache, "k" + i, bucket, 1).allowed()).isFalse(); // remembered while there is room
        }
        assertThat(keysTheStoreAnswers(cache, counting, bucket, keys)).as("denials not remembered")
                .isEqualTo(keys.subList(10, 100));
        clock.advance(Duration.ofHours(2)); // every denial remembered has expired
        acquire(cache, "fresh", bucket, 1);
        assertThat(acquire(cache, "fresh", bucket, 1).allowed()).isFalse();
        assertThat(keysTheStoreAnswers(cache, counting, bucket, List.of("fresh"))).as("the expired ones made room").isEmpty();
    }

    /**
     * As deployed, the denial cache sits on coalescing, which tells it of each answer instead of the cache composing a
     * future of its own: a denial is remembered whether the store answered at once (in memory) or later from another
     * thread (a remote store), for a request alone on its key and for one that left in a batch.
     */
    @Test
    void theDenialCacheOverCoalescingRemembersDenialsOfLoneRequestsAndOfBatches() throws Exception {
        TokenBucket bucket = TokenBucket.of(Limit.of(2, 1, Duration.ofHours(1)));
        for (boolean remote : new boolean[] {false, true}) {
            InMemoryBucketStore memory = new InMemoryBucketStore(clock, 1_000);
            BatchingBucketStore answering = remote ? new SlowStore(memory) : memory;
            CountingStore counting = new CountingStore(answering);
            BucketStore stack = new StoreStack(true, 100).over(counting, () -> clock.nowMicros() * 1_000);
            try {
                assertThat(acquire(stack, "alone", bucket, 2).allowed()).isTrue();
                assertThat(acquire(stack, "alone", bucket, 1).allowed()).isFalse();
                long before = counting.calls.get();
                assertThat(acquire(stack, "alone", bucket, 1).allowed()).as("remote: %s", remote).isFalse();
                assertThat(counting.calls.get()).as("a lone request's denial remembered (remote: %s)", remote).isEqualTo(before);

                List<CompletableFuture<Outcome>> together = new ArrayList<>();
                for (int i = 0; i < 8; i++) { // the first goes alone; the rest wait for it (remote) and leave as a batch
                    together.add(stack.acquire("batched", bucket, 1).toCompletableFuture());
                }
                long allowed = 0;
                for (CompletableFuture<Outcome> outcome : together) {
                    allowed += outcome.get(30, TimeUnit.SECONDS).allowed() ? 1 : 0;
                }
                assertThat(allowed).isEqualTo(2);
                before = counting.calls.get();
                assertThat(acquire(stack, "batched", bucket, 1).allowed()).isFalse();
                assertThat(counting.calls.get()).as("a batch's denial remembered (remote: %s)", remote).isEqualTo(before);
            } finally {
                stack.close();
            }
        }
    }

    /** @return those of {@code keys} whose next denial the store answers: the cache did not remember them */
    private static List<String> keysTheStoreAnswers(DenialCache cache, CountingStore counting, TokenBucket bucket,
            List<String> keys) throws Exception {
        List<String> answered = new ArrayList<>();
        for (String key : keys) {
            long before = counting.calls.get();
            assertThat(acquire(cache, key, bucket, 1).allowed()).isFalse();
            if (counting.calls.get() > before) {
                answered.add(key);
            }
        }
        return answered;
    }

    @Test
    void concurrentRequestsOnOneKeyShareRoundTripsAndStayExact() throws Exception {
        SlowStore slow = new SlowStore(new InMemoryBucketStore(clock, 1_000));
        CountingStore counting = new CountingStore(slow);
        CoalescingStore coalescing = new CoalescingStore(counting, System::nanoTime, false); // reserves: ReservesTest
        TokenBucket bucket = TokenBucket.of(Limit.of(1_000, 1, Duration.ofHours(1)));
        int threads = 16;
        try {
            long total = HotKeyLoad.run(coalescing, "hot", bucket, threads, 50);
            long rest = HotKeyLoad.drain(coalescing, "hot", bucket);
            assertThat(total + rest).isEqualTo(1_000);
            assertThat(counting.decisions.get()).isEqualTo(threads * 50L + rest + 1);
            System.out.printf("coalescing: %d decisions in %d store calls%n", counting.decisions.get(), counting.calls.get());
            assertThat(counting.calls.get()).isLessThan(counting.decisions.get() / 2);
            assertThat(Internals.mapSize(coalescing, "lanes")).as("keys still held after the last call").isZero();
        } finally {
            slow.close();
        }
    }

    private static Outcome acquire(BucketStore store, String key, TokenBucket bucket, long cost) throws Exception {
        return store.acquire(key, bucket, cost).toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
}
