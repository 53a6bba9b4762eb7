package io.tollgate.internal.store;

import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import java.util.concurrent.CompletableFuture;
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
     * Gives {@code tokens} back to the bucket at {@code key}, each limit capped at its burst: tokens a request was
     * charged and, by its outcome, does not owe. A missing or expired bucket is full: nothing changes. The default
     * takes no refunds (it completes exceptionally): a store that wraps another must pass refunds on.
     *
     * @param tokens tokens to give back, at least 1
     * @return the bucket after the refund, as an allowed outcome; completes exceptionally if the store fails
     */
    default CompletionStage<Outcome> refund(String key, TokenBucket bucket, long tokens) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException(getClass().getName() + " takes no refunds"));
    }

    /**
     * Makes the store ready before traffic arrives (a remote store creates its structures and loads
     * its classes on first use, which must not count against the first requests' timeout). Writes
     * nothing. The default does nothing.
     *
     * @param bucket a rule's limits, to exercise the real decision path
     */
    default void warmUp(TokenBucket bucket) throws Exception {
    }

    /** Releases what the store holds; the default does nothing. */
    @Override
    default void close() {
    }
}
