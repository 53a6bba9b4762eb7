package io.tollgate.internal.store;

import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;

/** Counts the calls that reach a store, and the decisions they carry. */
public final class CountingStore implements BatchingBucketStore {

    private final BatchingBucketStore store;
    public final AtomicLong calls = new AtomicLong();
    public final AtomicLong decisions = new AtomicLong();

    public CountingStore(BatchingBucketStore store) {
        this.store = store;
    }

    @Override
    public CompletionStage<Outcome> acquire(String key, TokenBucket bucket, long cost) {
        calls.incrementAndGet();
        decisions.incrementAndGet();
        return store.acquire(key, bucket, cost);
    }

    @Override
    public CompletionStage<Outcome[]> acquireAll(String key, TokenBucket bucket, long[] costs, long[] waitedNanos) {
        calls.incrementAndGet();
        decisions.addAndGet(costs.length);
        return store.acquireAll(key, bucket, costs, waitedNanos);
    }

    @Override
    public void close() {
        store.close();
    }
}
