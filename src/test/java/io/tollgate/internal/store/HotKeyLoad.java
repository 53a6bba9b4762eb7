package io.tollgate.internal.store;

import io.tollgate.internal.core.TokenBucket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** Many threads on one key of a store, and what the store granted them. */
final class HotKeyLoad {

    private HotKeyLoad() {
    }

    /**
     * {@code threads} threads each ask for {@code requestsEach} requests on {@code key}, thread {@code t} at a cost of
     * {@code 1 + t % 3}.
     *
     * @return the tokens granted, all threads together
     */
    static long run(BucketStore store, String key, TokenBucket bucket, int threads, int requestsEach) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Long>> granted = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int cost = 1 + t % 3;
                granted.add(pool.submit(() -> {
                    long tokens = 0;
                    for (int i = 0; i < requestsEach; i++) {
                        if (store.acquire(key, bucket, cost).toCompletableFuture().get(30, TimeUnit.SECONDS).allowed()) {
                            tokens += cost;
                        }
                    }
                    return tokens;
                }));
            }
            long total = 0;
            for (Future<Long> f : granted) {
                total += f.get(60, TimeUnit.SECONDS);
            }
            return total;
        } finally {
            pool.shutdownNow();
        }
    }

    /** @return the tokens of cost 1 granted on {@code key} until the first denial */
    static long drain(BucketStore store, String key, TokenBucket bucket) throws Exception {
        long rest = 0;
        while (store.acquire(key, bucket, 1).toCompletableFuture().get(30, TimeUnit.SECONDS).allowed()) {
            rest++;
        }
        return rest;
    }
}
