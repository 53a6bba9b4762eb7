package io.tollgate.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.Decision;
import io.tollgate.internal.limiter.Decisions;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Retry-After: the exact wait rounded up, stretched by a per-client jitter that never shortens it. */
class RetryAfterTest {

    private static final long SECOND = 1_000_000L;

    private static Decision denied(long retryAfterMicros) {
        return new Decision("search", false, 1, 0, 20, 0, 2 * SECOND, retryAfterMicros, false, false);
    }

    @Test
    void withoutJitterRetryAfterIsTheExactWaitRoundedUpAndAtLeastOneSecond() {
        assertThat(RetryAfter.seconds(denied(SECOND), "client", 0)).isEqualTo(1);
        assertThat(RetryAfter.seconds(denied(SECOND + 1), "client", 0)).isEqualTo(2);
        assertThat(RetryAfter.seconds(denied(2_500_000), "client", 0)).isEqualTo(3);
        assertThat(RetryAfter.seconds(denied(3_600 * SECOND), "client", 0)).isEqualTo(3_600);
        assertThat(RetryAfter.seconds(denied(1), "client", 0)).isEqualTo(1);
        assertThat(RetryAfter.seconds(denied(0), "client", 0)).isEqualTo(1);
    }

    @Test
    void withJitterRetryAfterIsNeverBelowTheExactWaitNorAboveOneAndAHalfTimesIt() {
        long[] waits = {1, 999_999, SECOND, SECOND + 1, 2_500_000, 10 * SECOND, 3_600 * SECOND + 123_457};
        for (long wait : waits) {
            long exact = (wait + SECOND - 1) / SECOND;
            long most = Math.max(1, (wait * 3 + 2 * SECOND - 1) / (2 * SECOND)); // ceil(wait x 1.5), in seconds
            for (int client = 0; client < 2_000; client++) {
                long seconds = RetryAfter.seconds(denied(wait), "client-" + client, 0.5);
                assertThat(seconds).as("wait %d µs, client %d", wait, client).isBetween(exact, most);
            }
        }
    }

    @Test
    void aDenialWithoutTheStoreSuggestsItsFixedWaitWithoutJitter() {
        for (int client = 0; client < 200; client++) {
            assertThat(RetryAfter.seconds(Decisions.storeUnavailable("search", false, 1, 20, SECOND), "client-" + client, 0.5))
                    .isEqualTo(1);
        }
    }

    @Test
    void theJitterOfAClientIsTheSameEveryTime() {
        for (int client = 0; client < 100; client++) {
            String key = "198.51.100." + client;
            long first = RetryAfter.seconds(denied(10 * SECOND), key, 0.5);
            for (int again = 0; again < 3; again++) {
                assertThat(RetryAfter.seconds(denied(10 * SECOND), key, 0.5)).isEqualTo(first);
            }
            assertThat(RetryAfter.unit("search", key)).isEqualTo(RetryAfter.unit("search", key));
        }
    }

    @Test
    void aLargerJitterNeverShortensTheWaitOfAClient() {
        for (int client = 0; client < 1_000; client++) {
            String key = "client-" + client;
            long none = RetryAfter.seconds(denied(10 * SECOND), key, 0);
            long half = RetryAfter.seconds(denied(10 * SECOND), key, 0.5);
            long full = RetryAfter.seconds(denied(10 * SECOND), key, 1);
            assertThat(none).isEqualTo(10);
            assertThat(half).isBetween(none, 15L);
            assertThat(full).isBetween(half, 20L);
        }
    }

    @Test
    void clientsAreSpreadEvenlyOverTheJitter() {
        // a 10 s wait with up to 50% jitter: 11..15 s; 10 s only for a fraction of exactly 0
        Map<Long, Integer> histogram = new TreeMap<>();
        for (int client = 0; client < 10_000; client++) {
            histogram.merge(RetryAfter.seconds(denied(10 * SECOND), "198.51." + client / 256 + "." + client % 256, 0.5), 1,
                    Integer::sum);
        }
        assertThat(histogram.keySet()).containsExactly(11L, 12L, 13L, 14L, 15L);
        assertThat(histogram.values()).allSatisfy(count -> assertThat(count).isBetween(1_800, 2_200));
    }

    @Test
    void theJitterFractionIsInZeroToOneAndDependsOnTheRuleToo() {
        int differs = 0;
        for (int client = 0; client < 1_000; client++) {
            double search = RetryAfter.unit("search", "client-" + client);
            double reports = RetryAfter.unit("reports", "client-" + client);
            assertThat(search).isGreaterThanOrEqualTo(0).isLessThan(1);
            if (search != reports) {
                differs++;
            }
        }
        assertThat(differs).isEqualTo(1_000);
        assertThat(RetryAfter.unit("search", null)).isGreaterThanOrEqualTo(0).isLessThan(1);
    }
}
