package io.tollgate.internal.hazelcast;

import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.internal.store.BucketReading;
import io.tollgate.internal.store.BucketStore;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

/** Sends each call through the next store in turn: one timeline, decided from every member. */
final class RoundRobinStore implements BucketStore {

    private final List<? extends BucketStore> stores;
    private final AtomicInteger next = new AtomicInteger();

    RoundRobinStore(List<? extends BucketStore> stores) {
        this.stores = stores;
    }

    @Override
    public CompletionStage<Outcome> acquire(String key, TokenBucket bucket, long cost) {
        return stores.get(Math.floorMod(next.getAndIncrement(), stores.size())).acquire(key, bucket, cost);
    }

    @Override
    public CompletionStage<Outcome> refund(String key, TokenBucket bucket, long tokens) {
        return stores.get(Math.floorMod(next.getAndIncrement(), stores.size())).refund(key, bucket, tokens);
    }

    @Override
    public BucketReading read(String key) {
        return next().read(key);
    }

    @Override
    public boolean reset(String key) {
        return next().reset(key);
    }

    private BucketStore next() {
        return stores.get(Math.floorMod(next.getAndIncrement(), stores.size()));
    }

    @Override
    public void close() {
        stores.forEach(BucketStore::close);
    }
}
