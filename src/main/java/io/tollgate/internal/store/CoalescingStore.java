package io.tollgate.internal.store;

import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.LongSupplier;

/**
 * Hot-key coalescing. A request for a key with no call in flight goes to the store at once; requests
 * for that key arriving while one is in flight wait and leave together, as one batch, when it
 * returns: one round trip for many decisions, which the owner still makes one by one in arrival
 * order, so the counts stay exact. An uncontended key pays nothing extra. Each request of a batch
 * says how long it has waited, so that the store holds it to its own caller's deadline.
 */
public final class CoalescingStore implements BucketStore {

    /** Most decisions in one call; more wait for the next. Also the most a member reads in one batch. */
    public static final int MAX_BATCH = 512;
    /** A request that waited less than this before it left is sent as it came (1 ms: well below any store timeout). */
    private static final long FRESH_NANOS = 1_000_000;

    private final BatchingBucketStore store;
    private final LongSupplier nanoTime;
    private final ConcurrentHashMap<String, Lane> lanes = new ConcurrentHashMap<>();
    /**
     * Sends the batches that gather while a call is in flight. The answer arrives on the store's I/O
     * thread, which must not make the next remote call itself (Hazelcast forbids it); sending never
     * blocks, so one thread serves every key.
     */
    private final ExecutorService sender = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "tollgate-coalescing");
        thread.setDaemon(true);
        return thread;
    });

    public CoalescingStore(BatchingBucketStore store) {
        this(store, System::nanoTime);
    }

    /** @param nanoTime a monotonic clock in nanoseconds, for how long each request waited */
    public CoalescingStore(BatchingBucketStore store, LongSupplier nanoTime) {
        this.store = store;
        this.nanoTime = nanoTime;
    }

    @Override
    public CompletionStage<Outcome> acquire(String key, TokenBucket bucket, long cost) {
        bucket.checkCost(cost);
        Waiter waiter = new Waiter(bucket, cost, nanoTime.getAsLong());
        while (true) {
            Lane lane = lanes.computeIfAbsent(key, k -> new Lane());
            synchronized (lane) {
                if (lane.retired) {
                    continue; // removed after its last call; take a fresh one
                }
                if (lane.inFlight) {
                    lane.waiting.add(waiter);
                    return waiter.result;
                }
                lane.inFlight = true;
            }
            send(key, lane, List.of(waiter));
            return waiter.result;
        }
    }

    /**
     * Sends {@code batch}, and then each batch that gathered meanwhile, until the lane is idle. A
     * store that answers at once (in memory) is served by this loop rather than by recursion.
     */
    private void send(String key, Lane lane, List<Waiter> first) {
        List<Waiter> batch = first;
        while (batch != null) {
            CompletableFuture<Outcome[]> call = call(key, batch).toCompletableFuture();
            if (!call.isDone()) {
                List<Waiter> sent = batch;
                call.whenComplete((outcomes, failure) -> {
                    List<Waiter> following = next(key, lane); // the next batch leaves before this one's callers wake
                    if (following != null) {
                        dispatch(key, lane, following);
                    }
                    complete(sent, outcomes, failure);
                });
                return;
            }
            Outcome[] outcomes = null;
            Throwable failure = null;
            try {
                outcomes = call.join();
            } catch (RuntimeException e) {
                failure = e.getCause() != null ? e.getCause() : e;
            }
            List<Waiter> following = next(key, lane);
            complete(batch, outcomes, failure);
            batch = following;
        }
    }

    private void dispatch(String key, Lane lane, List<Waiter> batch) {
        try {
            sender.execute(() -> send(key, lane, batch));
        } catch (RejectedExecutionException e) {
            complete(batch, null, new IllegalStateException("the rate-limit store is closed", e));
            List<Waiter> rest;
            while ((rest = next(key, lane)) != null) {
                complete(rest, null, new IllegalStateException("the rate-limit store is closed", e));
            }
        }
    }

    /**
     * A request that goes out as it arrives is a plain call; a batch that waited, even of one, says how
     * long each of its requests has waited, so each one's deadline still counts from its arrival.
     */
    private CompletionStage<Outcome[]> call(String key, List<Waiter> batch) {
        try {
            long now = nanoTime.getAsLong();
            if (batch.size() == 1 && now - batch.get(0).arrivedNanos < FRESH_NANOS) {
                Waiter only = batch.get(0);
                return store.acquire(key, only.bucket, only.cost).thenApply(outcome -> new Outcome[] {outcome});
            }
            long[] costs = new long[batch.size()];
            long[] waited = new long[batch.size()];
            for (int i = 0; i < costs.length; i++) {
                costs[i] = batch.get(i).cost;
                waited[i] = now - batch.get(i).arrivedNanos;
            }
            return store.acquireAll(key, batch.get(0).bucket, costs, waited);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static void complete(List<Waiter> batch, Outcome[] outcomes, Throwable failure) {
        for (int i = 0; i < batch.size(); i++) {
            if (failure != null) {
                batch.get(i).result.completeExceptionally(failure);
            } else if (outcomes[i].isExpired()) {
                batch.get(i).result.completeExceptionally(Outcome.expiredFailure());
            } else {
                batch.get(i).result.complete(outcomes[i]);
            }
        }
    }

    /** @return the next batch of the lane, or {@code null} (and the lane retired) if nobody waits */
    private List<Waiter> next(String key, Lane lane) {
        synchronized (lane) {
            if (lane.waiting.isEmpty()) {
                lane.inFlight = false;
                lane.retired = true;
                lanes.remove(key, lane);
                return null;
            }
            return takeBatch(lane.waiting);
        }
    }

    /** The next waiters that share the first one's bucket definition, at most {@link #MAX_BATCH}. */
    private static List<Waiter> takeBatch(List<Waiter> waiting) {
        TokenBucket bucket = waiting.get(0).bucket;
        List<Waiter> batch = new ArrayList<>(Math.min(waiting.size(), MAX_BATCH));
        int taken = 0;
        while (taken < waiting.size() && batch.size() < MAX_BATCH && waiting.get(taken).bucket.equals(bucket)) {
            batch.add(waiting.get(taken++));
        }
        waiting.subList(0, taken).clear();
        return batch;
    }

    /** @return the number of keys with a call in flight (for tests) */
    int lanes() {
        return lanes.size();
    }

    @Override
    public void warmUp(TokenBucket bucket) throws Exception {
        store.warmUp(bucket);
    }

    @Override
    public void close() {
        sender.shutdown();
        store.close();
    }

    private static final class Lane {
        boolean inFlight;
        boolean retired;
        final List<Waiter> waiting = new ArrayList<>();
    }

    private static final class Waiter {
        final TokenBucket bucket;
        final long cost;
        final long arrivedNanos;
        final CompletableFuture<Outcome> result = new CompletableFuture<>();

        Waiter(TokenBucket bucket, long cost, long arrivedNanos) {
            this.bucket = bucket;
            this.cost = cost;
            this.arrivedNanos = arrivedNanos;
        }
    }
}
