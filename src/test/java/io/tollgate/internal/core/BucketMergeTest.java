package io.tollgate.internal.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The merge of a bucket's two histories after a split: never more tokens than either side, whatever the timeline. */
class BucketMergeTest {

    private static final long T0 = 1_700_000_000_000_000L;
    private static final long SECOND = 1_000_000L;
    private static final TokenBucket TEN_PER_SECOND = TokenBucket.of(Limit.of(10, 10, Duration.ofSeconds(1)));
    private static final TokenBucket TWO_LIMITS = TokenBucket.of(Limit.of(20, 10, Duration.ofSeconds(1)),
            Limit.of(30, 30, Duration.ofHours(1)));

    @Test
    void aBucketDrainedOnBothSidesStaysDrained() {
        long[] left = drained(TEN_PER_SECOND, null, T0, 10);
        long[] right = drained(TEN_PER_SECOND, null, T0 + 50_000, 10);

        long[] merged = BucketMerge.merge(left, right);

        assertThat(TEN_PER_SECOND.tryConsume(merged, 1, T0 + 50_000).allowed()).isFalse();
        assertThat(TEN_PER_SECOND.tryConsume(merged, 1, T0 + 150_000).allowed()).as("one token refilled 100 ms after the later").isTrue();
        assertThat(TEN_PER_SECOND.levels(merged, T0 + 150_000).get(0).tokens()).isEqualTo(1);
    }

    @Test
    void eachLimitTakesTheFewerTokensAtTheLaterTime() {
        long[] left = drained(TWO_LIMITS, null, T0, 18);               // 2 of 20 left, 12 of 30 left
        long[] right = drained(TWO_LIMITS, null, T0 + SECOND, 5);      // later: 15 of 20, 25 of 30
        long[] merged = BucketMerge.merge(right, left);

        assertThat(BucketState.time(merged)).isEqualTo(T0 + SECOND);
        assertThat(TWO_LIMITS.levels(merged, T0 + SECOND)).extracting(LimitLevel::tokens).containsExactly(2L, 12L);
        assertThat(BucketMerge.merge(left, right)).as("in either order").containsExactly(merged);
    }

    @Test
    void aMissingSideIsAFullBucketSoTheOtherIsKept() {
        long[] drained = drained(TEN_PER_SECOND, null, T0, 7);
        assertThat(BucketMerge.merge(drained, null)).isSameAs(drained);
        assertThat(BucketMerge.merge(null, drained)).isSameAs(drained);
        assertThat(BucketMerge.merge(null, null)).isNull();
    }

    @Test
    void aMalformedSideLosesToAWellFormedOne() {
        long[] drained = drained(TEN_PER_SECOND, null, T0, 7);
        long[] malformed = {T0, 0, 5};
        assertThat(BucketMerge.merge(malformed, drained)).isSameAs(drained);
        assertThat(BucketMerge.merge(drained, malformed)).isSameAs(drained);
    }

    @Test
    void aStateOfAnotherScaleIsCountedInTheLaterScale() {
        TokenBucket slower = TokenBucket.of(Limit.of(10, 1, Duration.ofSeconds(1)));
        long[] earlier = drained(slower, null, T0, 7);                // 3 tokens, other units per token
        long[] later = drained(TEN_PER_SECOND, null, T0 + SECOND, 1);  // 9 tokens

        long[] merged = BucketMerge.merge(earlier, later);

        assertThat(TEN_PER_SECOND.levels(merged, T0 + SECOND).get(0).tokens()).isEqualTo(3);
    }

    @Test
    void aStateOfAnotherNumberOfLimitsGivesEachLimitAtMostItsFewestTokens() {
        long[] twoLimits = drained(TWO_LIMITS, null, T0, 16);          // 4 of 20, 14 of 30
        long[] oneLimit = drained(TEN_PER_SECOND, null, T0 + 10, 2);   // later, one limit: 8 of 10

        long[] merged = BucketMerge.merge(twoLimits, oneLimit);

        assertThat(TEN_PER_SECOND.levels(merged, T0 + 10).get(0).tokens()).isEqualTo(4);
    }

    /**
     * Two sides decide the same bucket apart, each from the state it had at the split; at any moment after it, the
     * merged state never grants more than the side that holds fewer tokens then.
     */
    @Test
    void neverMoreThanEitherSideAtAnyLaterMoment() {
        SplittableRandom random = new SplittableRandom(20261128);
        for (int round = 0; round < 2_000; round++) {
            TokenBucket bucket = random.nextBoolean() ? TEN_PER_SECOND : TWO_LIMITS;
            long[] shared = drained(bucket, null, T0, random.nextInt(0, 11));
            long[] left = shared;
            long[] right = shared;
            long leftNow = T0;
            long rightNow = T0;
            for (int step = 0; step < 20; step++) {
                leftNow += random.nextLong(0, SECOND);
                rightNow += random.nextLong(0, SECOND);
                left = drained(bucket, left, leftNow, random.nextInt(0, 4));
                right = drained(bucket, right, rightNow, random.nextInt(0, 4));
            }
            long[] merged = BucketMerge.merge(left, right);
            long at = Math.max(leftNow, rightNow) + random.nextLong(0, 3 * SECOND);
            for (int i = 0; i < bucket.limitCount(); i++) {
                long mergedTokens = bucket.levels(merged, at).get(i).tokens();
                assertThat(mergedTokens).as("round %d, limit %d", round, i)
                        .isLessThanOrEqualTo(bucket.levels(left, at).get(i).tokens())
                        .isLessThanOrEqualTo(bucket.levels(right, at).get(i).tokens());
            }
        }
    }

    /** @return the state after {@code requests} requests of cost 1 at {@code now} (those refused change nothing) */
    private static long[] drained(TokenBucket bucket, long[] state, long now, int requests) {
        long[] current = state;
        for (int i = 0; i < requests; i++) {
            Outcome outcome = bucket.tryConsume(current, 1, now);
            if (outcome.newState() != null) {
                current = outcome.newState();
            }
        }
        return current == null ? full(bucket, now) : current;
    }

    /** @return a full bucket's state, stored at {@code now} */
    private static long[] full(TokenBucket bucket, long now) {
        return bucket.refund(bucket.tryConsume(null, 1, now).newState(), bucket.maxCost(), now).newState();
    }
}
