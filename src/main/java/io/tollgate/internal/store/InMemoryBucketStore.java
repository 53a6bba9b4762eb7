package io.tollgate.internal.store;

import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.core.Clock;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Buckets in this JVM only: exact under any number of threads (each key is updated under the map's
 * per-bin lock), for development, single-instance deployments and tests. Idle buckets are dropped
 * once they would be full again; at most {@code maxEntries} buckets are kept. When a new key
 * arrives at the bound, a bucket that was not used again since it was made or since the evictor last
 * passed it is dropped (it restarts full): a clock sweep with a second chance, close to least recently
 * used at no cost per request. Keys used once, as in a flood of new keys, go first; a client that keeps
 * coming back keeps its bucket, denials included.
 */
public final class InMemoryBucketStore implements BatchingBucketStore {

    private static final int SWEEP_EVERY = 4096;
    /** When full, at most this share of the bound is dropped at once, so making room stays cheap per key. */
    private static final int EVICT_DIVISOR = 100;
    /** Buckets the hand looks at per call before it stops sparing any: past that it drops what it meets. */
    private static final int SECOND_CHANCES = 64;

    private final Clock clock;
    private final int maxEntries;
    private final ConcurrentHashMap<String, Entry> buckets = new ConcurrentHashMap<>();
    private final AtomicLong nextSweepMicros = new AtomicLong();
    /** Where the evictor stands: it goes round the buckets, carrying on where it stopped. Guarded by itself. */
    private final Object handLock = new Object();
    private Iterator<Map.Entry<String, Entry>> hand;

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

    /** Decides at once, telling {@code answered} first, without composing a stage. */
    @Override
    public CompletionStage<Outcome> acquire(String key, TokenBucket bucket, long cost, Answered answered) {
        Outcome outcome;
        try {
            outcome = acquireNow(key, bucket, cost);
        } catch (RuntimeException e) {
            answered.answered(key, bucket, cost, null, e);
            throw e;
        }
        answered.answered(key, bucket, cost, outcome, null);
        return CompletableFuture.completedFuture(outcome);
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
            boolean live = entry != null && entry.expiresAt > now;
            Outcome outcome = bucket.tryConsume(live ? entry.state : null, cost, now);
            result[0] = outcome;
            if (outcome.newState() == null) {
                return used(entry);
            }
            return new Entry(outcome.newState(), now + outcome.fullAfterMicros(), live);
        });
        return result[0];
    }

    @Override
    public boolean takesRefunds() {
        return true;
    }

    @Override
    public CompletionStage<Outcome> refund(String key, TokenBucket bucket, long tokens) {
        Outcome[] result = new Outcome[1];
        buckets.computeIfPresent(key, (k, entry) -> {
            long now = clock.nowMicros();
            if (entry.expiresAt <= now) {
                return entry; // full again: the sweep drops it
            }
            Outcome outcome = bucket.refund(entry.state, tokens, now);
            result[0] = outcome;
            return outcome.newState() == null ? entry : new Entry(outcome.newState(), now + outcome.fullAfterMicros(), entry.usedAgain);
        });
        return CompletableFuture.completedFuture(result[0] != null ? result[0] : bucket.refund(null, tokens, clock.nowMicros()));
    }

    @Override
    public CompletionStage<Outcome[]> acquireAll(String key, TokenBucket bucket, long[] costs, long[] waitedNanos) {
        for (long cost : costs) {
            bucket.checkCost(cost);
        }
        Outcome[] outcomes = new Outcome[costs.length];
        if (buckets.size() >= maxEntries && !buckets.containsKey(key)) {
            makeRoom();
        }
        buckets.compute(key, (k, entry) -> {
            long now = clock.nowMicros();
            boolean live = entry != null && entry.expiresAt > now;
            long[] next = bucket.tryConsumeAll(live ? entry.state : null, costs, now, outcomes);
            return next == null ? used(entry) : new Entry(next, now + outcomes[outcomes.length - 1].fullAfterMicros(), live);
        });
        return CompletableFuture.completedFuture(outcomes);
    }

    @Override
    public CompletionStage<Void> retain(String key, TokenBucket limits) {
        buckets.computeIfPresent(key, (k, entry) -> retained(entry, limits));
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletionStage<Void> retainRule(String rule, TokenBucket limits, Set<String> except) {
        for (String key : buckets.keySet()) {
            if (BucketKeys.isClientBucketOf(key, rule) && !except.contains(key)) {
                buckets.computeIfPresent(key, (k, entry) -> retained(entry, limits));
            }
        }
        return CompletableFuture.completedFuture(null);
    }

    /** @return {@code entry} expiring when {@code limits} have refilled it; as it is if it expired or is full under them */
    private Entry retained(Entry entry, TokenBucket limits) {
        long now = clock.nowMicros();
        long until = entry.expiresAt > now ? limits.untilFullMicros(entry.state, now) : 0;
        return until == 0 ? entry : new Entry(entry.state, now + until, entry.usedAgain);
    }

    /** @return the clock buckets are decided on */
    public Clock clock() {
        return clock;
    }

    /** Reads the bucket as it is, without marking it used. */
    @Override
    public BucketReading read(String key) {
        Entry entry = buckets.get(key);
        long now = clock.nowMicros();
        return new BucketReading(entry != null && entry.expiresAt > now ? entry.state : null, now);
    }

    /** Removes the bucket: this store is this JVM's alone, so nothing else remembers it. An expired one was none. */
    @Override
    public boolean reset(String key) {
        Entry removed = buckets.remove(key);
        return removed != null && removed.expiresAt > clock.nowMicros();
    }

    /** @return the number of buckets held, expired ones included until the next sweep */
    public int size() {
        return buckets.size();
    }

    /** Drops every bucket that is full again at {@code now}. */
    public void sweep(long now) {
        buckets.values().removeIf(entry -> entry.expiresAt <= now);
    }

    /** A bucket denied (or only looked at) is in use too: a denied client must not come back to a full bucket. */
    private static Entry used(Entry entry) {
        if (entry != null) {
            entry.usedAgain = true;
        }
        return entry;
    }

    /**
     * Drops expired buckets (at most once a second, a full pass), then, if still full, moves the hand
     * on: a bucket used again since the hand last passed gets a second chance (its mark is cleared),
     * any other is dropped. After {@link #SECOND_CHANCES} buckets in one call the hand drops whatever
     * it meets, so a client rotating keys pays a bounded, amortized cost per new key.
     */
    private void makeRoom() {
        long now = clock.nowMicros();
        long next = nextSweepMicros.get();
        if (now - next >= 0 && nextSweepMicros.compareAndSet(next, now + 1_000_000)) {
            sweep(now);
        }
        int batch = Math.max(1, maxEntries / EVICT_DIVISOR);
        synchronized (handLock) {
            int dropped = 0;
            int looked = 0;
            while (buckets.size() >= maxEntries && dropped < batch) {
                if (hand == null || !hand.hasNext()) {
                    hand = buckets.entrySet().iterator();
                    if (!hand.hasNext()) {
                        return;
                    }
                }
                Map.Entry<String, Entry> candidate = hand.next();
                Entry entry = candidate.getValue();
                boolean patient = looked++ < SECOND_CHANCES;
                if (patient && entry.usedAgain) {
                    entry.usedAgain = false;
                } else if (patient ? buckets.remove(candidate.getKey(), entry) : buckets.remove(candidate.getKey()) != null) {
                    dropped++;
                }
            }
        }
    }

    @Override
    public void close() {
        buckets.clear();
    }

    private static final class Entry {
        final long[] state;
        final long expiresAt;
        /** Whether the bucket was used again since it was made or since the evictor's hand last passed it. */
        volatile boolean usedAgain;

        Entry(long[] state, long expiresAt, boolean usedAgain) {
            this.state = state;
            this.expiresAt = expiresAt;
            this.usedAgain = usedAgain;
        }
    }
}
