package io.tollgate.internal.store;

import java.util.function.LongSupplier;

/**
 * How Tollgate stacks its stores, the one place it is done: the denial cache in front of coalescing (with
 * reserves for hot keys) in front of the store that decides. The deployment, the tests and the benchmarks all
 * build the stack here, so that what they measure is what users run.
 *
 * @param coalescing          whether requests for one key coalesce and hot keys reserve tokens ahead
 * @param denialCacheEntries  the most denials the cache remembers; 0: no denial cache
 */
public record StoreStack(boolean coalescing, int denialCacheEntries) {

    /** What a deployment runs by default: coalescing, and a denial cache of 100 000 entries (the configuration's defaults). */
    public static final StoreStack DEFAULT = new StoreStack(true, 100_000);

    public StoreStack {
        if (denialCacheEntries < 0) {
            throw new IllegalArgumentException("denialCacheEntries must be >= 0: " + denialCacheEntries);
        }
    }

    /** @return the stack over {@code store}, timed by the system's monotonic clock */
    public BucketStore over(BatchingBucketStore store) {
        return over(store, System::nanoTime);
    }

    /** @param nanoTime a monotonic clock in nanoseconds, for the denial cache's expiry and the coalescing's waits */
    public BucketStore over(BatchingBucketStore store, LongSupplier nanoTime) {
        CoalescingStore coalesced = coalescing ? new CoalescingStore(store, nanoTime) : null;
        BucketStore below = coalesced != null ? coalesced : store;
        BucketStore stacked = below;
        if (denialCacheEntries > 0) {
            DenialCache cache = new DenialCache(below, denialCacheEntries, nanoTime, coalesced != null);
            if (coalesced != null) {
                coalesced.tellAnswers(cache::answered); // the cache learns of answers without a future of its own
            }
            stacked = cache;
        }
        store.listenForResets(stacked::forget); // a key reset by any member: this member's layers forget it
        return stacked;
    }
}
