package io.tollgate.internal.store;

import io.tollgate.internal.core.Clock;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Buckets in this JVM only: exact under any number of threads (each key is updated under the map's
 * per-bin lock), for development, single-instance deployments and tests. Idle buckets are dropped
 * once they would be full again; at most {@code maxEntries} buckets are kept, and when a new key
 * arrives at the bound an arbitrary bucket is dropped (it restarts full).
 */
public final class InMemoryBucketStore implements BatchingBucketStore {

    private static final int SWEEP_EVERY = 4096;
    /** When full, at most this share of the bound is dropped at once, so making room stays cheap per key. */
    private static final int EVICT_DIVISOR = 100;

    private final Clock clock;
    private final int maxEntries;
    private final ConcurrentHashMap<String, Entry> buckets = new ConcurrentHashMap<>();
    private final AtomicLong nextSweepMicros = new AtomicLong();

    public InMemoryBucketStore(Clock clock, int maxEntries) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("maxEntries = " + maxEntries + ": must be at least 1");
        }
        this.clock = clock;
        this.maxEntries = maxEntries;
    }

    @Override
    public CompletionStage<Outcome> acquire(String key, TokenBucket bucket, long cost) {
        return CompletableFuture.completedFuture(acquireNow(key, bucket, cost));
    }

    /** The synchronous form of {@link #acquire}. */
    public Outcome acquireNow(String key, TokenBucket bucket, long cost) {
        bucket.checkCost(cost);
        if (ThreadLocalRandom.current().nextInt(SWEEP_EVERY) == 0) {
            sweep(clock.nowMicros());
        }
        if (buckets.size() >= maxEntries && !buckets.containsKey(key)) {
            makeRoom();
        }
        Outcome[] result = new Outcome[1];
        buckets.compute(key, (k, entry) -> {
            long now = clock.nowMicros();
            long[] state = entry == null || entry.expiresAt <= now ? null : entry.state;
            Outcome outcome = bucket.tryConsume(state, cost, now);
            result[0] = outcome;
            if (outcome.newState() == null) {
                return entry;
            }
            return new Entry(outcome.newState(), now + outcome.fullAfterMicros());
        });
        return result[0];
    }

    @Override
    public CompletionStage<Outcome[]> acquireAll(String key, TokenBucket bucket, long[] costs, long waitedNanos) {
        for (long cost : costs) {
            bucket.checkCost(cost);
        }
        Outcome[] outcomes = new Outcome[costs.length];
        if (buckets.size() >= maxEntries && !buckets.containsKey(key)) {
            makeRoom();
        }
        buckets.compute(key, (k, entry) -> {
            long now = clock.nowMicros();
            long[] state = entry == null || entry.expiresAt <= now ? null : entry.state;
            long[] next = bucket.tryConsumeAll(state, costs, now, outcomes);
            return next == null ? entry : new Entry(next, now + outcomes[outcomes.length - 1].fullAfterMicros());
        });
        return CompletableFuture.completedFuture(outcomes);
    }

    /** @return the number of buckets held, expired ones included until the next sweep */
    public int size() {
        return buckets.size();
    }

    /** Drops every bucket that is full again at {@code now}. */
    public void sweep(long now) {
        buckets.values().removeIf(entry -> entry.expiresAt <= now);
    }

    /**
     * Drops expired buckets (at most once a second, a full pass), then, if still full, a batch of
     * arbitrary ones: a client rotating keys pays a bounded, amortized cost per new key.
     */
    private void makeRoom() {
        long now = clock.nowMicros();
        long next = nextSweepMicros.get();
        if (now - next >= 0 && nextSweepMicros.compareAndSet(next, now + 1_000_000)) {
            sweep(now);
        }
        int batch = Math.max(1, maxEntries / EVICT_DIVISOR);
        Iterator<Map.Entry<String, Entry>> it = buckets.entrySet().iterator();
        for (int dropped = 0; buckets.size() >= maxEntries && dropped < batch && it.hasNext(); dropped++) {
            it.next();
            it.remove();
        }
    }

    @Override
    public void close() {
        buckets.clear();
    }

    private static final class Entry {
        final long[] state;
        final long expiresAt;

        Entry(long[] state, long expiresAt) {
            this.state = state;
            this.expiresAt = expiresAt;
        }
    }
}
