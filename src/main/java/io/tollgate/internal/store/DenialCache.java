package io.tollgate.internal.store;

import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The local denial cache. After the store denies a request of cost {@code c} with a retry-after of
 * {@code t}, this member denies further requests for that key costing at least {@code c} by itself
 * until {@code t} has passed on its monotonic clock, counted from when the answer arrived. The owner
 * decided before the answer arrived and only consumption can happen meanwhile, so the bucket really
 * does lack those tokens for at least that long: the cache can only err toward denying, and a flood
 * on one key stays on this member. Cheaper requests, and every request after {@code t}, ask the store.
 */
public final class DenialCache extends StoreLayer implements RecentDenials {

    private final BucketStore store;
    /** Full passes over a full cache happen at most this often. */
    private static final long SWEEP_INTERVAL_NANOS = 1_000_000_000L;
    /** How long after its retry-after a denial still says "this key was hot" (see {@link #recentlyDenied}). */
    static final long HINT_NANOS = 1_000_000_000L;

    private final LongSupplier nanoTime;
    private final int maxEntries;
    private final ConcurrentHashMap<String, Denial> denials = new ConcurrentHashMap<>();
    private final AtomicLong nextSweepNanos = new AtomicLong();
    /** Whether the store below tells this cache of its answers (coalescing does), so that none need be composed here. */
    private final boolean told;

    public DenialCache(BucketStore store, int maxEntries) {
        this(store, maxEntries, System::nanoTime);
    }

    /** @param nanoTime a monotonic clock in nanoseconds */
    public DenialCache(BucketStore store, int maxEntries, LongSupplier nanoTime) {
        this(store, maxEntries, nanoTime, false);
    }

    /**
     * @param told whether {@code store} tells this cache of its answers, through {@link #answered} (coalescing does, when
     *             {@link StoreStack} stacks them), so that none need be composed here
     */
    DenialCache(BucketStore store, int maxEntries, LongSupplier nanoTime, boolean told) {
        super(store);
        this.store = store;
        this.maxEntries = maxEntries;
        this.nanoTime = nanoTime;
        this.told = told;
    }

    @Override
    public CompletionStage<Outcome> acquire(String key, TokenBucket bucket, long cost) {
        bucket.checkCost(cost);
        Denial denial = denials.get(key);
        if (denial != null && cost > 0) {
            long now = nanoTime.getAsLong();
            if (now - denial.untilNanos < 0 && cost >= denial.cost && denial.bucket.equals(bucket)) {
                return CompletableFuture.completedFuture(denial.outcome.aged((now - denial.arrivedNanos) / 1_000));
            }
            if (now - denial.untilNanos - HINT_NANOS >= 0) {
                denials.remove(key, denial);
            }
        }
        if (told) {
            return store.acquire(key, bucket, cost);
        }
        return store.acquire(key, bucket, cost).thenApply(outcome -> {
            answered(key, bucket, cost, outcome);
            return outcome;
        });
    }

    /** Remembers a denial the store answered. */
    void answered(String key, TokenBucket bucket, long cost, Outcome outcome) {
        if (!outcome.allowed() && outcome.retryAfterMicros() > 0) {
            remember(key, bucket, cost, outcome);
        }
    }

    /**
     * Refunds at the store, and forgets this key's denial: tokens given back break the cache's premise that only
     * consumption happens until the retry-after. Other members' caches still deny it until theirs pass.
     */
    @Override
    public CompletionStage<Outcome> refund(String key, TokenBucket bucket, long tokens) {
        denials.remove(key);
        return store.refund(key, bucket, tokens);
    }

    private void remember(String key, TokenBucket bucket, long cost, Outcome outcome) {
        long now = nanoTime.getAsLong();
        if (denials.size() >= maxEntries) {
            long next = nextSweepNanos.get();
            if (now - next >= 0 && nextSweepNanos.compareAndSet(next, now + SWEEP_INTERVAL_NANOS)) {
                denials.values().removeIf(d -> now - d.untilNanos - HINT_NANOS >= 0);
            }
            if (denials.size() >= maxEntries) {
                return; // full of live denials: the store keeps answering
            }
        }
        denials.merge(key, new Denial(bucket, cost, outcome, now, now + outcome.retryAfterMicros() * 1_000),
                (old, fresh) -> fresh.cost <= old.cost || fresh.untilNanos - old.untilNanos > 0 ? fresh : old);
    }

    /**
     * @return whether the store denied this key a request of at most {@code cost} recently (until a
     *         second after that denial's retry-after): when the store then fails to answer in time,
     *         the key is hot, not the store down, and letting the request through would over-grant
     */
    @Override
    public boolean recentlyDenied(String key, long cost) {
        Denial denial = denials.get(key);
        return denial != null && cost >= denial.cost && nanoTime.getAsLong() - denial.untilNanos - HINT_NANOS < 0;
    }

    /** A denial under the rule's old limits says nothing of its new ones: the store decides again. */
    @Override
    void forgetRuleHere(String rule) {
        denials.keySet().removeIf(key -> BucketKeys.ofRule(key, rule));
    }

    @Override
    void forgetHere(String key) {
        denials.remove(key);
    }

    @Override
    public void close() {
        denials.clear();
        store.close();
    }

    private static final class Denial {
        final TokenBucket bucket;
        final long cost;
        final Outcome outcome;
        final long arrivedNanos;
        final long untilNanos;

        Denial(TokenBucket bucket, long cost, Outcome outcome, long arrivedNanos, long untilNanos) {
            this.bucket = bucket;
            this.cost = cost;
            this.outcome = outcome;
            this.arrivedNanos = arrivedNanos;
            this.untilNanos = untilNanos;
        }
    }
}
