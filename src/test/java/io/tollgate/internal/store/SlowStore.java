package io.tollgate.internal.store;

import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/** Answers from another thread after a pause, like a remote store: concurrent callers pile up. */
final class SlowStore implements BatchingBucketStore {
    private final BatchingBucketStore store;
    private final ExecutorService answers = Executors.newSingleThreadExecutor();

    SlowStore(BatchingBucketStore store) {
        this.store = store;
    }

    private <T> CompletionStage<T> later(CompletionStage<T> result) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                TimeUnit.MILLISECONDS.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return result.toCompletableFuture().join();
        }, answers);
    }

    @Override
    public CompletionStage<Outcome> acquire(String key, TokenBucket bucket, long cost) {
        return later(store.acquire(key, bucket, cost));
    }

    @Override
    public CompletionStage<Outcome[]> acquireAll(String key, TokenBucket bucket, long[] costs, long[] waitedNanos) {
        return later(store.acquireAll(key, bucket, costs, waitedNanos));
    }

    @Override
    public void close() {
        answers.shutdownNow();
    }
}
