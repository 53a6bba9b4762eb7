package io.tollgate.internal.store;

import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import java.util.concurrent.CompletionStage;

/** A store that can decide several requests on one bucket in one atomic step, in order. */
public interface BatchingBucketStore extends BucketStore {

    /**
     * @param costs       the requests' costs, in arrival order; each within {@code [0, bucket.maxCost()]}
     * @param waitedNanos for each request, how long it has already waited: its caller's deadline is that
     *                    much nearer
     * @return one outcome per cost, in the same order; {@link Outcome#expired()} for a request the store
     *         did not decide because its caller's deadline passed first (such a request is not charged)
     */
    CompletionStage<Outcome[]> acquireAll(String key, TokenBucket bucket, long[] costs, long[] waitedNanos);
}
