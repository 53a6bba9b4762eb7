package io.tollgate.internal.store;

import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import java.util.concurrent.CompletionStage;

/**
 * Keeps bucket state and decides atomically: every call reads, decides and writes one bucket as
 * one indivisible step, on the clock of whoever holds the bucket.
 */
public interface BucketStore extends AutoCloseable {

    /**
     * Decides a request of {@code cost} tokens against the bucket at {@code key}.
     *
     * @param key    the store key (see {@link io.tollgate.internal.core.BucketKeys})
     * @param bucket the rule's limits
     * @param cost   tokens to take, {@code 0 <= cost <= bucket.maxCost()}
     * @return the outcome, without state; completes exceptionally if the store fails
     * @throws io.tollgate.internal.core.InvalidDefinitionException for a cost no bucket could grant,
     *         before the store is touched
     */
    CompletionStage<Outcome> acquire(String key, TokenBucket bucket, long cost);

    /**
     * Makes the store ready before traffic arrives (a remote store creates its structures and loads
     * its classes on first use, which must not count against the first requests' timeout). Writes
     * nothing. The default does nothing.
     *
     * @param bucket a rule's limits, to exercise the real decision path
     */
    default void warmUp(TokenBucket bucket) throws Exception {
    }

    /**
     * Forgets what this member worked out locally for the buckets of {@code rule} (cached denials, reserved tokens),
     * which the rule's change makes stale. The buckets themselves stay. The default holds nothing of the kind.
     */
    default void forgetRule(String rule) {
    }

    /** Releases what the store holds; the default does nothing. */
    @Override
    default void close() {
    }
}
