package io.tollgate.internal.limiter;

import io.tollgate.Decision;
import io.tollgate.internal.config.BucketLimits;
import io.tollgate.internal.core.Clock;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.internal.store.InMemoryBucketStore;
import io.tollgate.internal.store.StoreCluster;
import java.util.ArrayList;
import java.util.List;

/**
 * The buckets of {@code on-store-failure=local}: while the store cannot answer, each instance decides a key on a bucket
 * of its own, at its share of the key's limits (each limit divided by the instances last seen sharing the store,
 * {@link Limit#share}), so that all of them together grant about what the shared bucket would. Kept in this JVM,
 * bounded like the in-memory store. A bucket here starts full, except for a key this instance saw denied moments
 * ago: its tightest limit starts empty, so that a cut does not hand a flood a fresh burst; it goes on from where it
 * stood at the next failure.
 */
final class LocalShares {

    /** Buckets this instance keeps for the keys it decides while the store is away. */
    static final int MAX_ENTRIES = 100_000;

    private final InMemoryBucketStore buckets;
    private final StoreCluster cluster;

    LocalShares(StoreCluster cluster, Clock clock) {
        this.cluster = cluster;
        this.buckets = new InMemoryBucketStore(clock, MAX_ENTRIES);
    }

    /**
     * @param denied whether this instance saw the store deny the key moments ago: a new local bucket then starts empty
     * @return the decision of this instance's share of {@code limits} for {@code storeKey}, or {@code null} if the share
     *         cannot grant {@code cost} even when full
     */
    Decision decide(String rule, String storeKey, BucketLimits limits, long cost, boolean denied) {
        TokenBucket share = share(limits, Math.max(1, cluster.instances()));
        if (cost > share.maxCost()) {
            return null;
        }
        if (denied && buckets.read(storeKey).state() == null) {
            buckets.acquireNow(storeKey, share, share.maxCost());
        }
        return Decisions.local(rule, share, cost, buckets.acquireNow(storeKey, share, cost));
    }

    /** @return the share of one of {@code parts} instances: each limit's burst and rate divided by them */
    static TokenBucket share(BucketLimits limits, int parts) {
        if (parts == 1) {
            return limits.bucket();
        }
        List<Limit> shares = new ArrayList<>(limits.limits().size());
        for (Limit limit : limits.limits()) {
            shares.add(limit.share(parts));
        }
        return TokenBucket.of(shares);
    }
}
