package io.tollgate.internal.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Exact timelines of the pure decision function, to the microsecond. */
class TokenBucketTest {

    private static final long T0 = 1_700_000_000_000_000L;
    private static final long SECOND = 1_000_000L;

    private long[] state;

    private Outcome at(TokenBucket bucket, long now, long cost) {
        Outcome outcome = bucket.tryConsume(state, cost, now);
        if (outcome.newState() != null) {
            state = outcome.newState();
        }
        return outcome;
    }

    @Test
    void aFullBucketGrantsItsBurstThenRefillsOneTokenPerInterval() {
        TokenBucket bucket = TokenBucket.of(Limit.of(10, 10, Duration.ofSeconds(1)));
        for (int i = 0; i < 10; i++) {
            Outcome o = at(bucket, T0, 1);
            assertThat(o.allowed()).isTrue();
            assertThat(o.remaining()).isEqualTo(9 - i);
        }
        Outcome denied = at(bucket, T0, 1);
        assertThat(denied.allowed()).isFalse();
        assertThat(denied.remaining()).isZero();
        assertThat(denied.retryAfterMicros()).isEqualTo(100_000);
        assertThat(denied.resetAfterMicros()).isEqualTo(SECOND);
        assertThat(denied.newState()).isNull();

        assertThat(at(bucket, T0 + 99_999, 1).allowed()).isFalse();
        assertThat(at(bucket, T0 + 99_999, 1).retryAfterMicros()).isEqualTo(1);
        assertThat(at(bucket, T0 + 100_000, 1).allowed()).isTrue();
        assertThat(at(bucket, T0 + 100_000, 1).allowed()).isFalse();
        // after a long pause the bucket holds its burst, never more
        Outcome later = at(bucket, T0 + 3_600 * SECOND, 1);
        assertThat(later.allowed()).isTrue();
        assertThat(later.remaining()).isEqualTo(9);
        assertThat(later.resetAfterMicros()).isEqualTo(100_000);
    }

    @Test
    void aRefundGivesTokensBackCappedAtTheBurstAndWritesNothingForAMissingBucket() {
        TokenBucket bucket = TokenBucket.of(Limit.of(10, 10, Duration.ofSeconds(1)));
        Outcome full = bucket.refund(null, 3, T0);
        assertThat(full.newState()).as("a missing bucket is full: nothing to write").isNull();
        assertThat(full.remaining()).isEqualTo(10);
        for (int i = 0; i < 10; i++) {
            at(bucket, T0, 1);
        }
        Outcome back = refund(bucket, T0, 4);
        assertThat(back.allowed()).isTrue();
        assertThat(back.remaining()).isEqualTo(4);
        assertThat(back.resetAfterMicros()).isEqualTo(600_000);
        assertThat(at(bucket, T0, 4).allowed()).isTrue();
        assertThat(at(bucket, T0, 1).allowed()).as("exactly the four refunded, nothing more").isFalse();
        // half a second later 5 have refilled: a refund of 8 fills the bucket and no more
        Outcome capped = refund(bucket, T0 + 500_000, 8);
        assertThat(capped.remaining()).isEqualTo(10);
        assertThat(capped.resetAfterMicros()).isZero();
        assertThat(at(bucket, T0 + 500_000, 10).allowed()).isTrue();
        assertThat(at(bucket, T0 + 500_000, 1).allowed()).isFalse();
        assertThatThrownBy(() -> bucket.refund(state, 0, T0)).isInstanceOf(InvalidDefinitionException.class);
    }

    @Test
    void aRefundKeepsEveryLimitWithinItsOwnBurstAndTheClockThatNeverGoesBack() {
        TokenBucket bucket = TokenBucket.of(Limit.of(5, 5, Duration.ofSeconds(1)), Limit.of(8, 8, Duration.ofHours(1)));
        assertThat(at(bucket, T0 + SECOND, 5).allowed()).isTrue();
        // decided on a clock 1 s behind the stored time: the state's time stays, nothing is minted
        Outcome back = refund(bucket, T0, 50);
        assertThat(back.remaining()).as("each limit full again, and no fuller").isEqualTo(5);
        assertThat(at(bucket, T0 + SECOND, 5).allowed()).isTrue();
        assertThat(at(bucket, T0 + SECOND, 1).allowed()).isFalse();
        Outcome hourly = at(bucket, T0 + 3 * SECOND, 4);
        assertThat(hourly.allowed()).as("the hour limit was refunded to its 8, not to 55: 3 left").isFalse();
        assertThat(hourly.limitIndex()).isEqualTo(1);
        assertThat(hourly.remaining()).isEqualTo(3);
    }

    private Outcome refund(TokenBucket bucket, long now, long tokens) {
        Outcome outcome = bucket.refund(state, tokens, now);
        if (outcome.newState() != null) {
            state = outcome.newState();
        }
        return outcome;
    }

    @Test
    void aRateThatDoesNotDivideTheSecondIsExact() {
        TokenBucket bucket = TokenBucket.of(Limit.of(3, 3, Duration.ofSeconds(1)));
        assertThat(at(bucket, T0, 3).allowed()).isTrue();
        Outcome denied = at(bucket, T0, 1);
        assertThat(denied.retryAfterMicros()).isEqualTo(333_334); // ceil(1e6 / 3)
        // three tokens per second, exactly: at 333_333.3, 666_666.6 and 1_000_000 µs
        assertThat(at(bucket, T0 + 333_333, 1).allowed()).isFalse();
        assertThat(at(bucket, T0 + 333_334, 1).allowed()).isTrue();
        assertThat(at(bucket, T0 + 666_666, 1).allowed()).isFalse();
        assertThat(at(bucket, T0 + 666_667, 1).allowed()).isTrue();
        assertThat(at(bucket, T0 + 999_999, 1).allowed()).isFalse();
        assertThat(at(bucket, T0 + SECOND, 1).allowed()).isTrue();
    }

    @Test
    void aFullBucketDropsTheFractionOfATokenItCannotHold() {
        TokenBucket bucket = TokenBucket.of(Limit.of(1, 3, Duration.ofSeconds(1)));
        assertThat(at(bucket, T0, 1).allowed()).isTrue();
        assertThat(at(bucket, T0 + 333_334, 1).allowed()).isTrue(); // full at 333_333.3: the 0.6 µs of refill beyond is lost
        assertThat(at(bucket, T0 + 666_667, 1).allowed()).isFalse();
        assertThat(at(bucket, T0 + 666_668, 1).allowed()).isTrue();
    }

    @Test
    void variableCostsAreChargedWholeOrNotAtAll() {
        TokenBucket bucket = TokenBucket.of(Limit.of(10, 2, Duration.ofSeconds(1)));
        assertThat(at(bucket, T0, 7).remaining()).isEqualTo(3);
        Outcome denied = at(bucket, T0, 4);
        assertThat(denied.allowed()).isFalse();
        assertThat(denied.remaining()).isEqualTo(3);
        assertThat(denied.retryAfterMicros()).isEqualTo(500_000); // one token at 2/s
        assertThat(at(bucket, T0, 3).remaining()).isZero();
        assertThat(at(bucket, T0 + 2 * SECOND, 4).allowed()).isTrue();
    }

    @Test
    void aZeroCostOnlyReads() {
        TokenBucket bucket = TokenBucket.of(Limit.of(5, 1, Duration.ofSeconds(1)));
        at(bucket, T0, 5);
        Outcome peek = at(bucket, T0, 0);
        assertThat(peek.allowed()).isTrue();
        assertThat(peek.remaining()).isZero();
        assertThat(peek.newState()).isNull();
    }

    @Test
    void severalLimitsAreChargedAllOrNothing() {
        // A: 10/s burst 20, and B: 30 per minute burst 30
        TokenBucket bucket = TokenBucket.of(Limit.of(20, 10, Duration.ofSeconds(1)), Limit.of(30, 30, Duration.ofMinutes(1)));
        assertThat(at(bucket, T0, 20).allowed()).isTrue(); // A = 0, B = 10
        Outcome first = at(bucket, T0, 1);
        assertThat(first.allowed()).isFalse();
        assertThat(first.limitIndex()).isZero();
        assertThat(first.retryAfterMicros()).isEqualTo(100_000);

        // two seconds later A is full again and B holds 11
        Outcome allowed = at(bucket, T0 + 2 * SECOND, 10); // A = 10, B = 1
        assertThat(allowed.allowed()).isTrue();
        assertThat(allowed.limitIndex()).isEqualTo(1); // the tighter limit is reported
        assertThat(allowed.remaining()).isEqualTo(1);

        Outcome denied = at(bucket, T0 + 2 * SECOND, 2);
        assertThat(denied.allowed()).isFalse();
        assertThat(denied.limitIndex()).isEqualTo(1);
        assertThat(denied.remaining()).isEqualTo(1);
        assertThat(denied.retryAfterMicros()).isEqualTo(2 * SECOND); // B refills 0.5/s
        // the denial charged neither limit: A still holds 10 and B 1
        assertThat(state[2] / state[1]).isEqualTo(10);
        assertThat(state[4] / state[3]).isEqualTo(1);
        Outcome last = at(bucket, T0 + 2 * SECOND, 1);
        assertThat(last.allowed()).isTrue();
        assertThat(state[2] / state[1]).isEqualTo(9);
        assertThat(state[4] / state[3]).isZero();
    }

    @Test
    void aClockThatStepsBackMintsNothing() {
        TokenBucket bucket = TokenBucket.of(Limit.of(2, 1, Duration.ofSeconds(1)));
        at(bucket, T0 + 10 * SECOND, 2);
        // the deciding clock is now 5 s behind the stored time: no refill, and the wait includes the gap
        Outcome back = at(bucket, T0 + 5 * SECOND, 1);
        assertThat(back.allowed()).isFalse();
        assertThat(back.retryAfterMicros()).isEqualTo(6 * SECOND);
        assertThat(at(bucket, T0 + 10 * SECOND + 999_999, 1).allowed()).isFalse();
        assertThat(at(bucket, T0 + 11 * SECOND, 1).allowed()).isTrue();
        // a grant at an earlier clock keeps the stored time where it was
        at(bucket, T0 + 20 * SECOND, 0);
        assertThat(at(bucket, T0 + 12 * SECOND, 1).allowed()).isTrue();
        assertThat(state[0]).isEqualTo(T0 + 12 * SECOND);
        assertThat(at(bucket, T0 + 11 * SECOND, 1).allowed()).isFalse();
        assertThat(state[0]).isEqualTo(T0 + 12 * SECOND);
    }

    @Test
    void aStoredTimeFarAheadOfTheClockRestartsTheBucketEmptyAtTheClock() {
        // 2 tokens, one per second; a hostile or corrupt state claims a time in the year 2900, the bucket empty
        TokenBucket bucket = TokenBucket.of(Limit.of(2, 1, Duration.ofSeconds(1)));
        state = new long[] {32_503_680_000_000_000L, 1, 0};
        Outcome first = at(bucket, T0, 1);
        assertThat(first.allowed()).as("restarted empty, never full").isFalse();
        assertThat(first.remaining()).isZero();
        assertThat(first.retryAfterMicros()).as("the wait of an empty bucket, not of the stored time").isEqualTo(SECOND);
        assertThat(first.resetAfterMicros()).isEqualTo(2 * SECOND);
        assertThat(first.newState()).as("the restart is written, though nothing was granted").isNotNull();
        assertThat(state[0]).isEqualTo(T0);
        assertThat(at(bucket, T0 + SECOND - 1, 1).allowed()).isFalse();
        assertThat(at(bucket, T0 + SECOND, 1).allowed()).as("served again once a token has refilled").isTrue();
        assertThat(at(bucket, T0 + SECOND, 1).allowed()).isFalse();
        assertThat(at(bucket, T0 + 10 * SECOND, 2).allowed()).as("and refilling as usual").isTrue();
    }

    @Test
    void aStoredTimeUpToAnHourAheadIsAClockStepAndWaitedFor() {
        TokenBucket bucket = TokenBucket.of(Limit.of(2, 1, Duration.ofSeconds(1)));
        long hour = 3_600 * SECOND;
        state = new long[] {T0 + hour, 1, 0};
        Outcome behind = at(bucket, T0, 1);
        assertThat(behind.allowed()).isFalse();
        assertThat(behind.retryAfterMicros()).as("the wait includes the gap").isEqualTo(hour + SECOND);
        assertThat(behind.newState()).isNull();
        assertThat(at(bucket, T0 + hour + SECOND - 1, 1).allowed()).isFalse();
        assertThat(at(bucket, T0 + hour + SECOND, 1).allowed()).isTrue();

        state = new long[] {T0 + hour + 1, 1, 0}; // one microsecond beyond the bound
        Outcome restarted = at(bucket, T0, 1);
        assertThat(restarted.allowed()).isFalse();
        assertThat(restarted.retryAfterMicros()).isEqualTo(SECOND);
        assertThat(state[0]).isEqualTo(T0);
    }

    @Test
    void aFarFutureStateIsNotTrustedForTheTokensItClaimsEither() {
        TokenBucket bucket = TokenBucket.of(Limit.of(5, 1, Duration.ofSeconds(1)), Limit.of(50, 1, Duration.ofMinutes(1)));
        state = new long[] {Long.MAX_VALUE, 1_000_000, 5_000_000, 60_000_000, 3_000_000_000L};
        assertThat(at(bucket, T0, 1).allowed()).isFalse();
        assertThat(at(bucket, T0, 0).remaining()).as("both limits restarted empty").isZero();
        // a read alone does not write: a health check never changes a bucket
        state = new long[] {Long.MAX_VALUE, 1_000_000, 5_000_000, 60_000_000, 3_000_000_000L};
        assertThat(at(bucket, T0, 0).newState()).isNull();
    }

    @Test
    void aStoredTimeBeforeTheEpochIsRefusedAndOneAtTheEpochIsAnIdleBucketNotAnOverflow() {
        TokenBucket bucket = TokenBucket.of(Limit.of(3, 1, Duration.ofSeconds(1)));
        long[] beforeAnyClock = {Long.MIN_VALUE, 1, 0};
        assertThatThrownBy(() -> bucket.tryConsume(beforeAnyClock, 1, T0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("malformed bucket state: a timestamp of " + Long.MIN_VALUE + " µs");
        state = new long[] {0, 1, 0};
        Outcome o = at(bucket, T0, 1);
        assertThat(o.allowed()).as("idle since the epoch: full, as a missing bucket").isTrue();
        assertThat(o.remaining()).isEqualTo(2);
        assertThat(state[0]).isEqualTo(T0);
    }

    @Test
    void grantsExactlyBurstPlusRateTimesElapsedOverMillionsOfDecisions() {
        // 7 tokens every 3 s (2.333.../s), burst 5, greedy clients for ~1.3 million simulated seconds
        TokenBucket bucket = TokenBucket.of(Limit.of(5, 7, Duration.ofSeconds(3)));
        SplittableRandom random = new SplittableRandom(42);
        long now = T0;
        long granted = 0;
        long decisions = 0;
        while (granted < 3_000_000) {
            Outcome o = at(bucket, now, 1);
            decisions++;
            if (o.allowed()) {
                granted++;
            } else {
                now += o.retryAfterMicros() + (random.nextInt(4) == 0 ? random.nextInt(1_000) : 0);
            }
        }
        // every token ever minted was granted, or lost to a full bucket: never more than the bound
        long elapsed = now - T0;
        long bound = 5 + Math.floorDiv(elapsed * 7, 3 * SECOND);
        assertThat(granted).isLessThanOrEqualTo(bound);
        assertThat(decisions).isGreaterThan(granted);

        // without pauses the count is exact to the token
        state = null;
        now = T0;
        granted = 0;
        while (granted < 1_000_000) {
            Outcome o = at(bucket, now, 1);
            if (o.allowed()) {
                granted++;
            } else {
                now += o.retryAfterMicros();
            }
        }
        assertThat(granted).isEqualTo(5 + Math.floorDiv((now - T0) * 7, 3 * SECOND));
    }

    @Test
    void hugeRatesPeriodsAndGapsDoNotOverflow() {
        TokenBucket fast = TokenBucket.of(Limit.of(1L << 40, 1_000_000_000_000L, Duration.ofSeconds(1)));
        assertThat(at(fast, 0, 1L << 40).remaining()).isZero();
        Outcome refilled = at(fast, Long.MAX_VALUE / 2, 1);
        assertThat(refilled.allowed()).isTrue();
        assertThat(refilled.remaining()).isEqualTo((1L << 40) - 1);

        state = null;
        TokenBucket slow = TokenBucket.of(Limit.of(1000, 1, Duration.ofDays(3650)));
        at(slow, T0, 1000);
        Outcome denied = at(slow, T0 + SECOND, 1);
        assertThat(denied.retryAfterMicros()).isEqualTo(3650L * 86_400 * SECOND - SECOND);
        assertThat(denied.resetAfterMicros()).isEqualTo(1000 * 3650L * 86_400 * SECOND - SECOND);
    }

    @Test
    void refusesACostNoBucketCouldGrantWithTheFieldAndValue() {
        TokenBucket bucket = TokenBucket.of(Limit.of(20, 10, Duration.ofSeconds(1)), Limit.of(50, 1, Duration.ofSeconds(1)));
        assertThat(bucket.maxCost()).isEqualTo(20);
        assertThatThrownBy(() -> bucket.tryConsume(null, 21, T0))
                .isInstanceOf(InvalidDefinitionException.class)
                .hasMessage("cost = 21: exceeds the burst 20 of the rule, so it could never be granted");
        assertThatThrownBy(() -> bucket.tryConsume(null, -1, T0))
                .hasMessage("cost = -1: must not be negative");
        assertThatThrownBy(() -> TokenBucket.of())
                .hasMessage("limits = []: a rule needs at least one limit");
    }

    @Test
    void aRedeployedRuleKeepsTheTokensItsBucketsHeld() {
        TokenBucket before = TokenBucket.of(Limit.of(10, 10, Duration.ofSeconds(1)));
        at(before, T0, 7); // 3 tokens left
        TokenBucket slower = TokenBucket.of(Limit.of(10, 3, Duration.ofSeconds(1)));
        Outcome o = at(slower, T0, 0);
        assertThat(o.remaining()).isEqualTo(3);
        TokenBucket smaller = TokenBucket.of(Limit.of(2, 3, Duration.ofSeconds(1)));
        assertThat(at(smaller, T0, 0).remaining()).isEqualTo(2);
        // a rule with another number of limits keeps the tokens too (see the next test)
        TokenBucket two = TokenBucket.of(Limit.of(10, 1, Duration.ofSeconds(1)), Limit.of(100, 1, Duration.ofSeconds(1)));
        assertThat(at(two, T0, 0).remaining()).isEqualTo(3);
    }

    @Test
    void aRuleWithAnotherNumberOfLimitsStartsFromTheFewestTokensAnyStoredLimitHeld() {
        TokenBucket two = TokenBucket.of(Limit.of(10, 10, Duration.ofSeconds(1)), Limit.of(20, 20, Duration.ofHours(1)));
        at(two, T0, 7); // 3 and 13 tokens left
        TokenBucket one = TokenBucket.of(Limit.of(50, 10, Duration.ofSeconds(1)));
        assertThat(one.tryConsume(state, 0, T0).remaining()).isEqualTo(3);
        assertThat(one.tryConsume(state, 4, T0).allowed()).isFalse();
        assertThat(one.tryConsume(state, 3, T0).allowed()).isTrue();
        // from the stored time on it refills at the new rule's rate: 5 more tokens in 0.5 s
        assertThat(one.tryConsume(state, 9, T0 + 500_000).allowed()).isFalse();
        Outcome later = one.tryConsume(state, 8, T0 + 500_000);
        assertThat(later.allowed()).isTrue();
        assertThat(later.newState()).hasSize(3);

        // each limit of the new rule is capped at its own burst
        TokenBucket three = TokenBucket.of(Limit.of(2, 1, Duration.ofSeconds(1)), Limit.of(100, 1, Duration.ofSeconds(1)),
                Limit.of(5, 5, Duration.ofHours(1)));
        Outcome capped = three.tryConsume(state, 2, T0);
        assertThat(capped.allowed()).isTrue();
        assertThat(capped.newState()).containsExactly(T0, 1_000_000, 0, 1_000_000, 1_000_000, 720_000_000, 720_000_000);
        // a stored state with no whole token left carries none
        state = two.tryConsume(null, 10, T0).newState();
        assertThat(one.tryConsume(state, 1, T0).allowed()).isFalse();
    }

    @Test
    void aKeyAlternatingBetweenRulesWithAnotherNumberOfLimitsGrantsNoMoreThanOneBurst() {
        TokenBucket old = TokenBucket.of(Limit.of(10, 1, Duration.ofHours(1)));
        TokenBucket changed = TokenBucket.of(Limit.of(10, 1, Duration.ofHours(1)), Limit.of(1000, 1, Duration.ofDays(1)));
        long granted = 0;
        for (int i = 0; i < 40; i++) { // members with the old and the new rule take turns on the key, at one instant
            if (at(i % 2 == 0 ? old : changed, T0, 1).allowed()) {
                granted++;
            }
        }
        assertThat(granted).isEqualTo(10);
    }

    @Test
    void reportsTheTimeUntilEveryLimitIsFullForTheEntryTimeToLive() {
        TokenBucket bucket = TokenBucket.of(Limit.of(10, 10, Duration.ofSeconds(1)), Limit.of(100, 100, Duration.ofHours(1)));
        Outcome o = at(bucket, T0, 1);
        assertThat(o.fullAfterMicros()).isEqualTo(36 * SECOND); // one token of the hourly limit
        assertThat(o.resetAfterMicros()).isEqualTo(100_000); // the reported per-second limit
        assertThat(o.limitIndex()).isZero();
    }

    @Test
    void outcomesCarryTheReportedLimitAndTimes() {
        TokenBucket bucket = TokenBucket.of(Limit.perSecond(BigDecimal.TEN, 20));
        state = null;
        for (int i = 0; i < 20; i++) {
            at(bucket, T0, 1);
        }
        Outcome outcome = at(bucket, T0 + 50_000, 1);
        assertThat(outcome.allowed()).isFalse();
        assertThat(outcome.limitIndex()).isZero();
        assertThat(outcome.remaining()).isZero();
        assertThat(outcome.retryAfterMicros()).isEqualTo(50_000);
        assertThat(outcome.resetAfterMicros()).isEqualTo(1_950_000);
    }

    @Test
    void aSpecIsRebuiltOnlyIfALimitCouldHaveMadeIt() {
        TokenBucket bucket = TokenBucket.of(Limit.of(10, 3, Duration.ofSeconds(1)), Limit.of(100, 1, Duration.ofHours(1)));
        assertThat(TokenBucket.fromSpec(bucket.spec().clone())).isEqualTo(bucket);
        long[] sixteen = new long[16 * 3];
        for (int i = 0; i < sixteen.length; i += 3) {
            System.arraycopy(bucket.spec(), 0, sixteen, i, 3);
        }
        assertThat(TokenBucket.fromSpec(sixteen).limitCount()).isEqualTo(16);
        assertThatThrownBy(() -> TokenBucket.fromSpec(new long[17 * 3]))
                .hasMessage("malformed bucket spec of 51 longs: expected 1 to 16 limits of 3 longs each");
        assertThatThrownBy(() -> TokenBucket.fromSpec(new long[0])).hasMessageStartingWith("malformed bucket spec of 0 longs");
        assertThatThrownBy(() -> TokenBucket.fromSpec(new long[4])).hasMessageStartingWith("malformed bucket spec of 4 longs");
        assertThatThrownBy(() -> TokenBucket.fromSpec(new long[] {0, 1, 1}))
                .hasMessage("malformed bucket spec: limit 0 has a capacity of 0 units, outside [1, 2^61]");
        assertThatThrownBy(() -> TokenBucket.fromSpec(new long[] {(1L << 61) + 1, 1, 1}))
                .hasMessageContaining("a capacity of 2305843009213693953 units");
        assertThatThrownBy(() -> TokenBucket.fromSpec(new long[] {10, 1, 1, 10, -1, 1}))
                .hasMessage("malformed bucket spec: limit 1 has a refill of -1 units per µs, outside [1, 2^61]");
        assertThatThrownBy(() -> TokenBucket.fromSpec(new long[] {10, 1, 3}))
                .hasMessage("malformed bucket spec: limit 0 has 3 units per token, which do not divide its capacity of 10 units "
                        + "or exceed the longest period");
        assertThatThrownBy(() -> TokenBucket.fromSpec(new long[] {10, 1, 0})).hasMessageContaining("has 0 units per token");
        assertThatThrownBy(() -> TokenBucket.of(java.util.Collections.nCopies(17, Limit.of(1, 1, Duration.ofSeconds(1)))))
                .isInstanceOf(InvalidDefinitionException.class)
                .hasMessage("limits = 17 limits: a rule has at most 16");
    }

    @Test
    void aMalformedStateIsRefusedAndNothingIsDecided() {
        TokenBucket bucket = TokenBucket.of(Limit.of(10, 10, Duration.ofSeconds(1)));
        long upt = Limit.of(10, 10, Duration.ofSeconds(1)).unitsPerToken();
        assertThatThrownBy(() -> bucket.tryConsume(new long[0], 1, T0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("malformed bucket state of 0 longs: expected a timestamp and 1 to 16 limits of 2 longs each");
        assertThatThrownBy(() -> bucket.tryConsume(new long[] {T0, upt}, 1, T0)).hasMessageStartingWith("malformed bucket state of 2 longs");
        assertThatThrownBy(() -> bucket.tryConsume(new long[35], 1, T0)).hasMessageStartingWith("malformed bucket state of 35 longs");
        assertThatThrownBy(() -> bucket.tryConsume(new long[] {-1, upt, 0}, 1, T0))
                .hasMessage("malformed bucket state: a timestamp of -1 µs");
        assertThatThrownBy(() -> bucket.tryConsume(new long[] {T0, 0, 5}, 1, T0))
                .hasMessage("malformed bucket state: limit 0 has 0 units per token, outside [1, 2^61]");
        assertThatThrownBy(() -> bucket.tryConsume(new long[] {T0, upt, 0, upt, -5}, 1, T0))
                .hasMessage("malformed bucket state: limit 1 holds -5 units, outside [0, 2^61]");
        // the same checks hold for a whole batch: the first malformed state stops it before any decision
        Outcome[] outcomes = new Outcome[2];
        assertThatThrownBy(() -> bucket.tryConsumeAll(new long[] {T0, -1, 0}, new long[] {1, 1}, T0, outcomes))
                .hasMessageContaining("units per token");
        assertThat(outcomes).containsOnlyNulls();
    }
}
