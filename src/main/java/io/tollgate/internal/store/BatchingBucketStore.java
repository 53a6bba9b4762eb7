package io.tollgate.internal.store;

import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import java.util.concurrent.CompletionStage;

/** A store that can decide several requests on one bucket in one atomic step, in order. */
public interface BatchingBucketStore extends BucketStore {

    /**
     * @param costs       the requests' costs, in arrival order; each within {@code [0, bucket.maxCost()]}
     * @param waitedNanos how long the oldest of them has already waited (it shortens the deadline)
     * @return one outcome per cost, in the same order
     */
    CompletionStage<Outcome[]> acquireAll(String key, TokenBucket bucket, long[] costs, long waitedNanos);
}
