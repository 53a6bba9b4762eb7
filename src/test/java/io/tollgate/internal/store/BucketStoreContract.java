package io.tollgate.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.core.InvalidDefinitionException;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.testing.TestClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link BucketStore} must do, on a clock the test drives: exact timelines, all-or-
 * nothing charges, no state written by denials or bad input, and exact counts under concurrency.
 * Each store runs this same suite.
 */
public abstract class BucketStoreContract {

    protected static final long SECOND = 1_000_000L;
    private static final TokenBucket TEN_PER_SECOND = TokenBucket.of(Limit.of(10, 10, Duration.ofSeconds(1)));

    private String prefix;
    private long t0;

    /** @return the store under test */
    protected abstract BucketStore store();

    /** @return the clock the store decides with */
    protected abstract TestClock clock();

    @BeforeEach
    void freshKeysAndTime() {
        prefix = UUID.randomUUID().toString().substring(0, 8);
        t0 = clock().set(1_800_000_000L * SECOND).nowMicros();
    }

    @org.junit.jupiter.api.AfterEach
    void closeStore() {
        store().close();
    }

    protected String key(String name) {
        return BucketKeys.of("contract", prefix + "-" + name);
    }

    protected Outcome acquire(String key, TokenBucket bucket, long cost) {
        try {
            return store().acquire(key, bucket, cost).toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("store failed", e);
        }
    }

    private void at(long micros) {
        clock().set(t0 + micros);
    }

    @Test
    void grantsTheBurstThenOneTokenPerRefillInterval() {
        String key = key("burst");
        for (int i = 0; i < 10; i++) {
            Outcome o = acquire(key, TEN_PER_SECOND, 1);
            assertThat(o.allowed()).isTrue();
            assertThat(o.remaining()).isEqualTo(9 - i);
        }
        Outcome denied = acquire(key, TEN_PER_SECOND, 1);
        assertThat(denied.allowed()).isFalse();
        assertThat(denied.retryAfterMicros()).isEqualTo(100_000);
        assertThat(denied.resetAfterMicros()).isEqualTo(SECOND);

        at(99_999);
        assertThat(acquire(key, TEN_PER_SECOND, 1).allowed()).isFalse();
        at(100_000);
        assertThat(acquire(key, TEN_PER_SECOND, 1).allowed()).isTrue();
        assertThat(acquire(key, TEN_PER_SECOND, 1).allowed()).isFalse();
        at(350_000);
        assertThat(acquire(key, TEN_PER_SECOND, 2).allowed()).isTrue();
        Outcome third = acquire(key, TEN_PER_SECOND, 1);
        assertThat(third.allowed()).isFalse();
        assertThat(third.retryAfterMicros()).isEqualTo(50_000);
    }

    @Test
    void chargesVariableCostsWholeOrNotAtAll() {
        String key = key("cost");
        TokenBucket bucket = TokenBucket.of(Limit.of(100, 20, Duration.ofSeconds(1)));
        assertThat(acquire(key, bucket, 60).remaining()).isEqualTo(40);
        Outcome denied = acquire(key, bucket, 41);
        assertThat(denied.allowed()).isFalse();
        assertThat(denied.remaining()).isEqualTo(40);
        assertThat(denied.retryAfterMicros()).isEqualTo(50_000);
        assertThat(acquire(key, bucket, 40).remaining()).isZero();
        at(SECOND);
        assertThat(acquire(key, bucket, 20).allowed()).isTrue();
        assertThat(acquire(key, bucket, 1).allowed()).isFalse();
    }

    @Test
    void chargesSeveralLimitsAllOrNothing() {
        String key = key("multi");
        // A: 5 per second, burst 5; B: 8 per hour, burst 8 (one token every 450 s)
        TokenBucket bucket = TokenBucket.of(Limit.of(5, 5, Duration.ofSeconds(1)), Limit.of(8, 8, Duration.ofHours(1)));
        assertThat(acquire(key, bucket, 5).allowed()).isTrue(); // A = 0, B = 3
        Outcome denied = acquire(key, bucket, 1);
        assertThat(denied.allowed()).isFalse();
        assertThat(denied.limitIndex()).isZero();
        assertThat(denied.retryAfterMicros()).isEqualTo(200_000);

        at(200_000);
        Outcome one = acquire(key, bucket, 1); // A = 0, B = 2: the denial charged neither
        assertThat(one.allowed()).isTrue();
        assertThat(one.limitIndex()).isZero();
        at(1_200_000);
        Outcome two = acquire(key, bucket, 2); // A = 3, B = 0
        assertThat(two.allowed()).isTrue();
        assertThat(two.limitIndex()).isEqualTo(1);
        assertThat(two.remaining()).isZero();

        Outcome waitForB = acquire(key, bucket, 1);
        assertThat(waitForB.allowed()).isFalse();
        assertThat(waitForB.limitIndex()).isEqualTo(1);
        // B has refilled 1.2 s worth of its 450 s per token
        assertThat(waitForB.retryAfterMicros()).isEqualTo(450 * SECOND - 1_200_000);
        at(450 * SECOND);
        assertThat(acquire(key, bucket, 1).allowed()).isTrue();
    }

    @Test
    void aDenialWritesNothing() {
        String key = key("deny");
        TokenBucket bucket = TokenBucket.of(Limit.of(2, 1, Duration.ofSeconds(1)));
        acquire(key, bucket, 2);
        // many denials spread over 0.9 s must not move the bucket's clock
        for (int i = 1; i <= 9; i++) {
            at(i * 100_000L);
            assertThat(acquire(key, bucket, 1).allowed()).isFalse();
        }
        at(SECOND);
        Outcome o = acquire(key, bucket, 1);
        assertThat(o.allowed()).isTrue();
        assertThat(o.resetAfterMicros()).isEqualTo(2 * SECOND);
    }

    @Test
    void aClockStepBackwardsMintsNoTokens() {
        String key = key("backwards");
        TokenBucket bucket = TokenBucket.of(Limit.of(1, 1, Duration.ofSeconds(1)));
        at(10 * SECOND);
        assertThat(acquire(key, bucket, 1).allowed()).isTrue();
        at(5 * SECOND);
        Outcome back = acquire(key, bucket, 1);
        assertThat(back.allowed()).isFalse();
        assertThat(back.retryAfterMicros()).isEqualTo(6 * SECOND);
        at(11 * SECOND - 1);
        assertThat(acquire(key, bucket, 1).allowed()).isFalse();
        at(11 * SECOND);
        assertThat(acquire(key, bucket, 1).allowed()).isTrue();
    }

    @Test
    void keepsKeysApart() {
        String a = key("a");
        String b = key("b");
        assertThat(acquire(a, TEN_PER_SECOND, 10).allowed()).isTrue();
        assertThat(acquire(a, TEN_PER_SECOND, 1).allowed()).isFalse();
        assertThat(acquire(b, TEN_PER_SECOND, 10).allowed()).isTrue();
        assertThat(acquire(BucketKeys.of("other-rule", prefix + "-a"), TEN_PER_SECOND, 10).allowed()).isTrue();
    }

    @Test
    void refusesACostAboveTheBurstBeforeTouchingTheBucket() {
        String key = key("too-much");
        assertThatThrownBy(() -> store().acquire(key, TEN_PER_SECOND, 11))
                .isInstanceOf(InvalidDefinitionException.class)
                .hasMessage("cost = 11: exceeds the burst 10 of the rule, so it could never be granted");
        assertThatThrownBy(() -> store().acquire(key, TEN_PER_SECOND, -5))
                .hasMessage("cost = -5: must not be negative");
        assertThat(acquire(key, TEN_PER_SECOND, 10).allowed()).isTrue();
    }

    @Test
    void aRedeployedRuleWithAnotherRateKeepsTheTokensLeft() {
        String key = key("redeploy");
        acquire(key, TEN_PER_SECOND, 7);
        TokenBucket slower = TokenBucket.of(Limit.of(10, 3, Duration.ofSeconds(1)));
        Outcome o = acquire(key, slower, 3);
        assertThat(o.allowed()).isTrue();
        assertThat(acquire(key, slower, 1).retryAfterMicros()).isEqualTo(333_334);
    }

    @Test
    void aRuleWithAnotherNumberOfLimitsKeepsNoMoreThanTheFewestTokensItsBucketHeld() {
        String key = key("limit-count");
        TokenBucket two = TokenBucket.of(Limit.of(10, 1, Duration.ofHours(1)), Limit.of(20, 1, Duration.ofHours(1)));
        assertThat(acquire(key, two, 7).allowed()).isTrue(); // 3 and 13 tokens left
        TokenBucket one = TokenBucket.of(Limit.of(50, 1, Duration.ofHours(1)));
        assertThat(acquire(key, one, 4).allowed()).isFalse();
        assertThat(acquire(key, one, 3).allowed()).isTrue();
        assertThat(acquire(key, two, 1).allowed()).isFalse();
    }

    @Test
    void aResetSaysWhetherTheStoreHeldABucket() {
        String key = key("reset");
        assertThat(store().reset(key)).as("a key never charged has no bucket").isFalse();
        assertThat(store().read(key).state()).isNull();
        assertThat(acquire(key, TEN_PER_SECOND, 10).allowed()).isTrue();
        assertThat(store().read(key).state()).isNotNull();
        assertThat(store().reset(key)).as("the charged bucket").isTrue();
        assertThat(store().read(key).state()).isNull();
        assertThat(store().reset(key)).as("reset twice: the second finds none").isFalse();
        assertThat(acquire(key, TEN_PER_SECOND, 10).allowed()).as("full again").isTrue();
        assertThat(acquire(key, TEN_PER_SECOND, 1).allowed()).isFalse();
        assertThat(store().reset(key)).isTrue();
        assertThat(acquire(key, TEN_PER_SECOND, 10).allowed()).isTrue();
        assertThat(store().reset(key("reset-other"))).as("another key").isFalse();
    }

    /** @return whether the store takes refunds; one that does not must fail them and change nothing */
    protected boolean takesRefunds() {
        return true;
    }

    protected Outcome refund(String key, TokenBucket bucket, long tokens) throws Exception {
        return store().refund(key, bucket, tokens).toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    /**
     * Waits until the store takes refunds (a Hazelcast member sends them once every data member advertised that it
     * reads them): refunds to a missing bucket, which change nothing, until eight in a row are answered.
     */
    private void awaitRefunds() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        int inARow = 0;
        while (inARow < 8) {
            try {
                refund(key("await-refunds"), TEN_PER_SECOND, 1);
                inARow++;
            } catch (java.util.concurrent.ExecutionException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                inARow = 0;
                Thread.sleep(20);
            }
        }
    }

    @Test
    void aRefundGivesBackWhatWasChargedAndNoMoreThanTheBurst() throws Exception {
        String key = key("refund");
        assertThat(acquire(key, TEN_PER_SECOND, 10).allowed()).isTrue();
        if (!takesRefunds()) {
            assertThatThrownBy(() -> refund(key, TEN_PER_SECOND, 4)).hasMessageContaining("no refunds");
            assertThat(acquire(key, TEN_PER_SECOND, 1).allowed()).as("nothing given back").isFalse();
            return;
        }
        awaitRefunds();
        Outcome back = refund(key, TEN_PER_SECOND, 4);
        assertThat(back.allowed()).isTrue();
        assertThat(back.remaining()).isEqualTo(4);
        assertThat(acquire(key, TEN_PER_SECOND, 4).allowed()).isTrue();
        assertThat(acquire(key, TEN_PER_SECOND, 1).allowed()).as("exactly the four given back").isFalse();

        String capped = key("refund-capped");
        assertThat(acquire(capped, TEN_PER_SECOND, 6).allowed()).isTrue();
        assertThat(refund(capped, TEN_PER_SECOND, 9).remaining()).as("4 left, 9 back: capped at the burst").isEqualTo(10);
        assertThat(acquire(capped, TEN_PER_SECOND, 10).allowed()).isTrue();
        assertThat(acquire(capped, TEN_PER_SECOND, 1).allowed()).isFalse();
    }

    @Test
    void aRefundToAMissingOrExpiredBucketChangesNothing() throws Exception {
        if (!takesRefunds()) {
            return;
        }
        awaitRefunds();
        String missing = key("refund-missing");
        assertThat(refund(missing, TEN_PER_SECOND, 5).remaining()).as("a missing bucket is full").isEqualTo(10);
        assertThat(acquire(missing, TEN_PER_SECOND, 10).allowed()).isTrue();
        assertThat(acquire(missing, TEN_PER_SECOND, 1).allowed()).as("the refund made no tokens of its own").isFalse();

        String expired = key("refund-expired");
        assertThat(acquire(expired, TEN_PER_SECOND, 10).allowed()).isTrue();
        at(5 * SECOND);
        assertThat(refund(expired, TEN_PER_SECOND, 5).remaining()).isEqualTo(10);
        assertThat(acquire(expired, TEN_PER_SECOND, 10).allowed()).isTrue();
        assertThat(acquire(expired, TEN_PER_SECOND, 1).allowed()).isFalse();
    }

    /**
     * Charged under {@code 10/1s burst 20}, refunded after the rule became {@code 10/1s burst 20, 30/1h} and the
     * bucket was written so: the refund must not write the one-limit layout back, which the new rule would read as
     * the fewest tokens in every limit, minting hourly tokens.
     */
    @Test
    void aRefundAfterTheRuleGotAnotherNumberOfLimitsGivesNothingBack() throws Exception {
        if (!takesRefunds()) {
            return;
        }
        awaitRefunds();
        String key = key("refund-relayout");
        TokenBucket charged = TokenBucket.of(Limit.of(20, 10, Duration.ofSeconds(1)));
        TokenBucket changed = TokenBucket.of(Limit.of(20, 10, Duration.ofSeconds(1)), Limit.of(30, 30, Duration.ofHours(1)));
        assertThat(acquire(key, charged, 5).allowed()).isTrue(); // 15 left
        assertThat(acquire(key, changed, 5).allowed()).isTrue(); // 10 and 10 left: the hourly limit carried 15
        assertThat(refund(key, charged, 5).remaining()).as("the bucket as the charging limits read it").isEqualTo(10);
        assertThat(acquire(key, changed, 10).allowed()).isTrue();
        assertThat(acquire(key, changed, 1).allowed()).as("the refund gave nothing back to the hourly limit").isFalse();
        at(2 * SECOND);
        Outcome hourly = acquire(key, changed, 1);
        assertThat(hourly.allowed()).as("the per-second limit refilled; the hourly one has none").isFalse();
        assertThat(hourly.limitIndex()).isEqualTo(1);
    }

    @Test
    void grantsExactlyTheTokensThereAreUnderConcurrency() throws Exception {
        String key = key("concurrent");
        TokenBucket bucket = TokenBucket.of(Limit.of(300, 1, Duration.ofHours(1)));
        int threads = 16;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<long[]>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                results.add(pool.submit(() -> {
                    long granted = 0;
                    long requests = 0;
                    for (int i = 0; i < 40; i++) {
                        long cost = 1 + ThreadLocalRandom.current().nextInt(3);
                        requests++;
                        if (acquire(key, bucket, cost).allowed()) {
                            granted += cost;
                        }
                    }
                    return new long[] {granted, requests};
                }));
            }
            long granted = 0;
            for (Future<long[]> result : results) {
                granted += result.get(120, TimeUnit.SECONDS)[0];
            }
            // 16 x 40 requests of 1..3 tokens ask for ~1280 tokens: the bucket runs dry
            long drained = 0;
            while (acquire(key, bucket, 1).allowed()) {
                drained++;
            }
            assertThat(granted).isLessThanOrEqualTo(300);
            assertThat(granted + drained).isEqualTo(300);
        } finally {
            pool.shutdownNow();
        }
    }
}
