package io.tollgate.testing;

import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.internal.store.BatchingBucketStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.concurrent.CompletionStage;

/**
 * Sends one batch through {@link BatchingBucketStore#acquireAll}, however the Tollgate at hand
 * declares it: with one waiting time for the whole batch (Tollgate at wire version 0) or one per
 * request. For code that runs against both, in the mixed-version tests.
 */
public final class Batches {

    private Batches() {
    }

    /** @return the outcomes of {@code costs}, sent as one batch that has not waited */
    @SuppressWarnings("unchecked")
    public static CompletionStage<Outcome[]> acquireAll(BatchingBucketStore store, String key, TokenBucket bucket, long[] costs) {
        for (Method method : BatchingBucketStore.class.getMethods()) {
            if (method.getName().equals("acquireAll") && method.getParameterCount() == 4) {
                Object waited = method.getParameterTypes()[3] == long.class ? (Object) 0L : new long[costs.length];
                try {
                    return (CompletionStage<Outcome[]>) method.invoke(store, key, bucket, costs, waited);
                } catch (InvocationTargetException e) {
                    throw e.getCause() instanceof RuntimeException ? (RuntimeException) e.getCause() : new IllegalStateException(e.getCause());
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        throw new IllegalStateException("no acquireAll on " + BatchingBucketStore.class.getName());
    }
}
