package io.tollgate.bench;

import io.github.bucket4j.BucketConfiguration;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.TokenBucket;
import java.time.Duration;

/**
 * The limit a scenario runs under: a burst of {@code burst} tokens, refilled continuously with
 * {@code tokens} per {@code period}. Tollgate and the client-side baselines use it as a
 * {@link TokenBucket}, Bucket4j as one bandwidth with greedy (continuous) refill, its equivalent.
 */
enum Load {

    /** So high that nothing is denied: every decision is a grant and a write. */
    ALLOWED_HEAVY("allowed-heavy", 1_000_000_000L, 1_000_000_000L, Duration.ofSeconds(1)),
    /** The over-grant test's limit (burst 10, 10 tokens/s): after the first ten, almost every decision is a denial. */
    DENIED_HEAVY("denied-heavy", 10, 10, Duration.ofSeconds(1));

    final String id;
    final long burst;
    final long tokens;
    final Duration period;

    Load(String id, long burst, long tokens, Duration period) {
        this.id = id;
        this.burst = burst;
        this.tokens = tokens;
        this.period = period;
    }

    TokenBucket tollgate() {
        return TokenBucket.of(Limit.of(burst, tokens, period));
    }

    BucketConfiguration bucket4j() {
        return BucketConfiguration.builder().addLimit(limit -> limit.capacity(burst).refillGreedy(tokens, period)).build();
    }

    static Load of(String id) {
        for (Load load : values()) {
            if (load.id.equals(id)) {
                return load;
            }
        }
        throw new IllegalArgumentException("unknown load '" + id + "'");
    }
}
