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

    /**
     * {@link #acquire}, telling {@code answered} of the answer, or of the failure, on the thread that received it and
     * before the returned stage completes: a layer above learns that its call returned without composing a stage of its
     * own. Also when the call fails at once. The default composes one; a store that can tell without it overrides this.
     */
    default CompletionStage<Outcome> acquire(String key, TokenBucket bucket, long cost, Answered answered) {
        CompletionStage<Outcome> call;
        try {
            call = acquire(key, bucket, cost);
        } catch (RuntimeException e) {
            answered.answered(key, bucket, cost, null, e);
            throw e;
        }
        return call.whenComplete((outcome, failure) -> answered.answered(key, bucket, cost, outcome, failure));
    }

    /** Told of the answer to one {@link #acquire(String, TokenBucket, long, Answered) call}. */
    @FunctionalInterface
    interface Answered {

        /**
         * @param outcome the answer, or {@code null} if the call failed
         * @param failure why it failed, or {@code null}
         */
        void answered(String key, TokenBucket bucket, long cost, Outcome outcome, Throwable failure);
    }
}
