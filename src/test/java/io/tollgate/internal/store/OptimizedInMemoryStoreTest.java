package io.tollgate.internal.store;

import io.tollgate.testing.TestClock;

/** The store contract through the denial cache and hot-key coalescing, over the in-memory store. */
class OptimizedInMemoryStoreTest extends BucketStoreContract {

    private final TestClock clock = TestClock.atRealTime();
    private final BucketStore store = new StoreStack(true, 1_000).over(new InMemoryBucketStore(clock, 10_000),
            () -> clock.nowMicros() * 1_000);

    @Override
    protected BucketStore store() {
        return store;
    }

    @Override
    protected TestClock clock() {
        return clock;
    }
}
