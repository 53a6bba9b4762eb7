package io.tollgate.internal.store;

import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.LongSupplier;

/**
 * Hot-key coalescing, and tokens reserved ahead for hot keys. A request for a key with no call in flight
 * goes to the store at once; requests for that key arriving while one is in flight wait and leave together,
 * as one batch, when it returns: one round trip for many decisions, which the owner still makes one by one in
 * arrival order, so the counts stay exact. An uncontended key pays nothing extra: its request goes out marked only by
 * its key in a slot of a fixed table, and makes no object here. Each request of a batch says
 * how long it has waited, so that the store holds it to its own caller's deadline.
 *
 * <p>A key that is hot here (at least {@value #HOT_DEMAND} requests since its last call: waiting for it, or
 * granted from a reserve; or, when its requests come one at a time, {@value HotStreaks#STREAK} in a row each within
 * 2 ms of the one before, where the store takes refunds) also asks the owner, as the last request of its batch, for
 * a reserve: twice the tokens asked for since its last call, at most a sixteenth of the rule's smallest burst and
 * {@value #MAX_RESERVE} tokens, never for a rule whose burst is under {@value #MIN_RESERVING_BURST}. The owner takes the reserve from the bucket
 * like any request (or denies it, and nothing is taken); requests for the key are then granted here from the
 * reserve, without a round trip, and the next reserve is asked for when half of this one is used. Every token
 * granted was taken from the bucket first, so the grants never exceed {@code burst + rate x T}. Tokens not granted
 * within {@value #LEASE_MILLIS} ms of the reserve's last top-up are given back to the bucket (a refund, up to the
 * burst) by a call of the key's own, before any request that came after them; they are lost only when giving them
 * back fails, or when the key is reset or its rule changes (they were taken from the bucket as it was). A request the
 * owner decides while a reserve is held here reports the bucket plus the reserve, as a grant from the reserve does.
 */
public final class CoalescingStore extends StoreLayer {

    /** Most decisions in one call; more wait for the next. Also the most a member reads in one batch. */
    public static final int MAX_BATCH = 512;
    /** A request that waited less than this before it left is sent as it came (1 ms: well below any store timeout). */
    private static final long FRESH_NANOS = 1_000_000;
    /** Requests since a key's last call (waiting for it, or granted from its reserve) that make it hot here. */
    static final int HOT_DEMAND = 4;
    /** Rules whose smallest burst is below this never reserve: each of their decisions is made by the owner. */
    static final long MIN_RESERVING_BURST = 64;
    /** A reserve is at most this share (1/16) of the rule's smallest burst... */
    static final long RESERVE_SHARE = 16;
    /** ...and at most this many tokens. */
    static final long MAX_RESERVE = 1024;
    /** How long a reserve may be granted from after its last top-up arrived. */
    static final long LEASE_MILLIS = 20;
    private static final long LEASE_NANOS = TimeUnit.MILLISECONDS.toNanos(LEASE_MILLIS);
    /** Slots for calls in flight alone (a power of two): far more than the callers a member has at once. */
    static final int ALONE_SLOTS = 4096;

    private final BatchingBucketStore store;
    private final LongSupplier nanoTime;
    private final boolean reserving;
    private final ConcurrentHashMap<String, Lane> lanes = new ConcurrentHashMap<>();
    /**
     * Calls in flight alone: a request for a key with no lane here goes out with its key in its slot (by hash), and
     * leaves nothing else behind; the answer frees the slot. A request for that key meanwhile puts a lane in the slot
     * and waits in it, and the answer then serves the lane. A request whose slot is taken by another key goes out alone
     * in a lane of its own, as every lone request once did.
     */
    private final AtomicReferenceArray<Object> alone = new AtomicReferenceArray<>(ALONE_SLOTS);
    private final BatchingBucketStore.Answered aloneAnswered = this::aloneAnswered;
    private final BatchingBucketStore.Answered laneAnswered = this::laneAnswered;
    private final HotStreaks streaks = new HotStreaks();
    private Answers answers = Answers.NONE;
    /**
     * Sends the batches that gather while a call is in flight, and gives back reserves that expired on idle keys. The
     * answer arrives on the store's I/O thread, which must not make the next remote call itself (Hazelcast
     * forbids it); sending never blocks, so one thread serves every key.
     */
    private final ScheduledExecutorService sender = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "tollgate-coalescing");
        thread.setDaemon(true);
        return thread;
    });

    /** Coalescing, with reserves for hot keys. */
    public CoalescingStore(BatchingBucketStore store) {
        this(store, System::nanoTime, true);
    }

    /** @param nanoTime a monotonic clock in nanoseconds, for how long each request waited and how long a reserve lasts */
    public CoalescingStore(BatchingBucketStore store, LongSupplier nanoTime) {
        this(store, nanoTime, true);
    }

    /**
     * @param nanoTime  a monotonic clock in nanoseconds, for how long each request waited and how long a reserve lasts
     * @param reserving whether hot keys reserve tokens ahead
     */
    public CoalescingStore(BatchingBucketStore store, LongSupplier nanoTime, boolean reserving) {
        super(store);
        this.store = store;
        this.nanoTime = nanoTime;
        this.reserving = reserving;
    }

    @Override
    public CompletionStage<Outcome> acquire(String key, TokenBucket bucket, long cost) {
        bucket.checkCost(cost);
        long now = nanoTime.getAsLong();
        boolean streak = false;
        if (!lanes.containsKey(key)) {
            streak = reserving && streaks.hot(key, now) && store.takesRefunds();
            if (!streak) {
                int slot = slot(key);
                Object held = alone.get(slot);
                if (held == null && alone.compareAndSet(slot, null, key)) {
                    return callAlone(key, bucket, cost, aloneAnswered);
                }
                if (!key.equals(held)) { // the slot is another key's: out alone in a lane
                    Lane lone = new Lane(key);
                    lone.inFlight = true;
                    if (lanes.putIfAbsent(key, lone) == null) {
                        return callAlone(key, bucket, cost, laneAnswered);
                    }
                } // else this key's call is in flight alone: wait for it in a lane
            }
        }
        Waiter waiter = null;
        while (true) {
            Lane lane = lanes.computeIfAbsent(key, Lane::new);
            Outcome reserved;
            Send send;
            synchronized (lane) {
                if (lane.retired) {
                    continue; // removed after its last call; take a fresh one
                }
                if (!lane.inFlight && joinAlone(key, lane)) {
                    lane.inFlight = true; // the call in flight alone answers for the lane
                }
                if (streak && lane.demandRequests < HOT_DEMAND - 1) { // hot one request at a time: as if some had waited
                    lane.demandRequests = HOT_DEMAND - 1;
                    lane.demandTokens = (HOT_DEMAND - 1) * cost;
                }
                reserved = lane.takeReserved(bucket, cost, now);
                if (reserved != null) {
                    if (lane.inFlight || !lane.runningLow()) {
                        return CompletableFuture.completedFuture(reserved);
                    }
                    send = lane.send(List.of(), bucket, reserving); // the next reserve, before this one runs out
                } else {
                    if (waiter == null) {
                        waiter = new Waiter(bucket, cost, now);
                    }
                    if (lane.inFlight) {
                        lane.await(waiter);
                        return waiter.result;
                    }
                    send = lane.giveBackExpired(now);
                    if (send != null) { // the reserve's lease ended: its tokens go back first, and the request after them
                        lane.await(waiter);
                    } else {
                        send = lane.send(List.of(waiter), bucket, reserving);
                    }
                }
                if (send.batch().isEmpty() && send.reserve() == 0 && send.givenBack() == 0) {
                    return CompletableFuture.completedFuture(reserved); // not hot enough for another reserve
                }
                lane.inFlight = true;
            }
            send(key, lane, send);
            return reserved != null ? CompletableFuture.completedFuture(reserved) : waiter.result;
        }
    }

    /** @return the slot of {@code key} in {@link #alone} */
    static int slot(String key) {
        int h = key.hashCode();
        return (h ^ (h >>> 16)) & (ALONE_SLOTS - 1);
    }

    /**
     * The one request of a key with no call in flight here: a plain call, as if there were no coalescing, marked by the
     * key in its slot ({@link #aloneAnswered}) or, where the slot is another key's, by a lane ({@link #laneAnswered}).
     * Requests that arrive meanwhile wait in a lane and leave together when it returns, before its caller wakes.
     */
    private CompletionStage<Outcome> callAlone(String key, TokenBucket bucket, long cost, BatchingBucketStore.Answered told) {
        try {
            return store.acquire(key, bucket, cost, told);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e); // told already: the slot, or the lane, is free
        }
    }

    /**
     * @return whether {@code key}'s call is in flight alone and {@code lane} (locked, not in flight) took its slot: the
     *         call's answer then serves the lane, as if it were the lane's call
     */
    private boolean joinAlone(String key, Lane lane) {
        int slot = slot(key);
        Object held = alone.get(slot);
        return held instanceof String && held.equals(key) && alone.compareAndSet(slot, held, lane);
    }

    /**
     * The answer to a call made alone, on the thread that has it, before its caller does: frees the slot, or, if a lane
     * took it meanwhile, sends what waits there.
     */
    private void aloneAnswered(String key, TokenBucket bucket, long cost, Outcome outcome, Throwable failure) {
        if (outcome != null) {
            answers.answered(key, bucket, cost, outcome);
        }
        int slot = slot(key);
        if (alone.compareAndSet(slot, key, null)) { // the very key the call put there: nobody waits
            return;
        }
        Lane lane = (Lane) alone.get(slot);
        alone.set(slot, null);
        resume(key, lane);
    }

    /** The answer to a call made alone in a lane (its slot was another key's), in flight until now: what waited leaves. */
    private void laneAnswered(String key, TokenBucket bucket, long cost, Outcome outcome, Throwable failure) {
        if (outcome != null) {
            answers.answered(key, bucket, cost, outcome);
        }
        resume(key, lanes.get(key));
    }

    /**
     * After a call made alone returned to {@code lane}: the batch that gathered leaves (from the sender, since this is the
     * store's thread), and the waiters the lane's reserve covers are granted.
     */
    private void resume(String key, Lane lane) {
        Next next = next(key, lane, null, null, null);
        if (next.send() != null) {
            dispatch(key, lane, next.send());
        }
        next.completeServed();
    }

    /**
     * A refund goes to the owner at once, beside any call in flight for the key: giving back commutes with taking
     * (up to the burst's cap, where either order is one the owner could have seen). The key's reserve here is left
     * as it is: what it holds was taken from the bucket, and goes back when its lease ends unused, as before.
     */
    @Override
    public CompletionStage<Outcome> refund(String key, TokenBucket bucket, long tokens) {
        return store.refund(key, bucket, tokens);
    }

    /**
     * Sends {@code first}, and then each batch that gathered meanwhile, until the lane is idle. A
     * store that answers at once (in memory) is served by this loop rather than by recursion.
     */
    private void send(String key, Lane lane, Send first) {
        Send send = first;
        while (send != null) {
            CompletableFuture<Outcome[]> call = call(key, send).toCompletableFuture();
            if (!call.isDone()) {
                Send sent = send;
                call.whenComplete((outcomes, failure) -> {
                    Next next = next(key, lane, sent, outcomes, failure); // the next batch leaves before this one's callers wake
                    if (next.send() != null) {
                        dispatch(key, lane, next.send());
                    }
                    complete(key, sent.batch(), outcomes, failure, next.held());
                    next.completeServed();
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
            Next next = next(key, lane, send, outcomes, failure);
            complete(key, send.batch(), outcomes, failure, next.held());
            next.completeServed();
            send = next.send();
        }
    }

    private void dispatch(String key, Lane lane, Send send) {
        try {
            sender.execute(() -> send(key, lane, send));
        } catch (RejectedExecutionException e) {
            IllegalStateException closed = new IllegalStateException("the rate-limit store is closed", e);
            complete(key, send.batch(), null, closed, 0);
            Next rest;
            while ((rest = next(key, lane, null, null, closed)).send() != null) {
                complete(key, rest.send().batch(), null, closed, 0);
            }
        }
    }

    /**
     * A request that goes out as it arrives is a plain call; a batch that waited, even of one, says how
     * long each of its requests has waited, so each one's deadline still counts from its arrival. A reserve is
     * the batch's last request, which has not waited.
     */
    private CompletionStage<Outcome[]> call(String key, Send send) {
        try {
            if (send.givenBack() > 0) {
                return store.refund(key, send.bucket(), send.givenBack()).thenApply(outcome -> NONE_DECIDED);
            }
            long now = nanoTime.getAsLong();
            List<Waiter> batch = send.batch();
            if (send.reserve() == 0 && batch.size() == 1 && now - batch.get(0).arrivedNanos < FRESH_NANOS) {
                Waiter only = batch.get(0);
                return store.acquire(key, only.bucket, only.cost).thenApply(outcome -> new Outcome[] {outcome});
            }
            int n = batch.size() + (send.reserve() > 0 ? 1 : 0);
            long[] costs = new long[n];
            long[] waited = new long[n];
            for (int i = 0; i < batch.size(); i++) {
                costs[i] = batch.get(i).cost;
                waited[i] = now - batch.get(i).arrivedNanos;
            }
            if (send.reserve() > 0) {
                costs[n - 1] = send.reserve();
            }
            return store.acquireAll(key, send.bucket(), costs, waited);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Completes the requests of a batch with the owner's answers. An allowed request also counts the tokens still held
     * here for its bucket ({@code held}): taken from the bucket before the owner decided, not granted yet, they are
     * the caller's as much as what the bucket holds, and a grant from the reserve would count them too.
     */
    private void complete(String key, List<Waiter> batch, Outcome[] outcomes, Throwable failure, long held) {
        for (int i = 0; i < batch.size(); i++) {
            Waiter waiter = batch.get(i);
            if (failure != null) {
                waiter.result.completeExceptionally(failure);
            } else if (outcomes[i].isExpired()) {
                waiter.result.completeExceptionally(Outcome.expiredFailure());
            } else {
                Outcome outcome = outcomes[i];
                if (held > 0 && outcome.allowed()) {
                    long burst = waiter.bucket.burst(outcome.limitIndex());
                    outcome = outcome.reservedGrant(Math.min(burst, outcome.remaining() + held));
                }
                answers.answered(key, waiter.bucket, waiter.cost, outcome);
                waiter.result.complete(outcome);
            }
        }
    }

    /**
     * Tells {@code answers} of every answer the store gives a request, on the thread that received it and before the
     * request's caller has it: a layer above learns of its answers without composing a future of its own. Set before
     * the first request.
     */
    void tellAnswers(Answers answers) {
        this.answers = answers;
    }

    /** What a layer above learns of each answer from the store. */
    @FunctionalInterface
    interface Answers {
        Answers NONE = (key, bucket, cost, outcome) -> { };

        void answered(String key, TokenBucket bucket, long cost, Outcome outcome);
    }

    /**
     * Takes the reserve {@code sent} obtained, if any; grants from the reserve the waiters it covers; and takes
     * the lane's next batch, or retires the lane if nobody waits and it holds no reserve.
     */
    private Next next(String key, Lane lane, Send sent, Outcome[] outcomes, Throwable failure) {
        long now = nanoTime.getAsLong();
        synchronized (lane) {
            boolean answered = sent != null && failure == null && sent.forgotten() == lane.forgotten; // nothing forgotten since
            boolean sameReserve = answered && lane.reserve > 0 && sent.bucket().equals(lane.reserveBucket);
            long held = sameReserve && !sent.batch().isEmpty() ? lane.reserve : 0; // its lease may have ended: held all the same
            if (answered && sent.reserve() > 0) {
                Outcome reserved = outcomes[outcomes.length - 1];
                if (!reserved.isExpired() && reserved.allowed()) {
                    lane.addReserve(sent.bucket(), sent.reserve(), reserved, now + LEASE_NANOS);
                    scheduleExpiry(key, lane);
                    sameReserve = false; // the reserve's answer is the bucket as the owner left it
                }
            }
            if (sameReserve) { // the owner's bucket as this call left it: what grants from the reserve count from now on
                for (int i = outcomes.length - 1; i >= 0; i--) {
                    if (!outcomes[i].isExpired()) {
                        lane.reserveBasis = outcomes[i];
                        break;
                    }
                }
            }
            int covered = 0;
            while (covered < lane.waiting.size()) {
                Waiter waiter = lane.waiting.get(covered);
                waiter.reserved = lane.takeReserved(waiter.bucket, waiter.cost, now);
                if (waiter.reserved == null) {
                    break;
                }
                covered++;
            }
            List<Waiter> served = List.of();
            if (covered > 0) {
                served = List.copyOf(lane.waiting.subList(0, covered));
                lane.waiting.subList(0, covered).clear();
            }
            Send send = lane.giveBackExpired(now);
            if (send == null && !lane.waiting.isEmpty()) {
                List<Waiter> batch = takeBatch(lane.waiting);
                send = lane.send(batch, batch.get(0).bucket, reserving);
            } else if (send == null) {
                lane.inFlight = false;
                if (!lane.holdsReserve(now)) {
                    lane.retired = true;
                    lanes.remove(key, lane);
                } else {
                    scheduleExpiry(key, lane); // idle, holding a reserve: given back if nobody uses it
                }
            }
            return send == null && served.isEmpty() && held == 0 ? Next.IDLE : new Next(send, served, held);
        }
    }

    /** Gives back to the bucket the reserve of a lane nobody used since it expired, then drops the lane. */
    private void scheduleExpiry(String key, Lane lane) {
        if (lane.expiryScheduled) {
            return;
        }
        long delay = lane.reserveExpiresNanos - nanoTime.getAsLong();
        try {
            sender.schedule(() -> expire(key, lane), Math.max(delay, 0) + 1, TimeUnit.NANOSECONDS);
            lane.expiryScheduled = true;
        } catch (RejectedExecutionException e) {
            // closed: the lanes go with the store
        }
    }

    private void expire(String key, Lane lane) {
        Send giveBack;
        synchronized (lane) {
            lane.expiryScheduled = false;
            long now = nanoTime.getAsLong();
            if (lane.retired || lane.inFlight) {
                return; // retired, or the call in flight gives it back when it returns
            }
            if (lane.holdsReserve(now)) {
                scheduleExpiry(key, lane);
                return;
            }
            giveBack = lane.giveBackExpired(now);
            if (giveBack == null) {
                if (lane.waiting.isEmpty()) {
                    lane.retired = true;
                    lanes.remove(key, lane);
                }
                return;
            }
            lane.inFlight = true;
        }
        send(key, lane, giveBack);
    }

    /** The next waiters that share the first one's bucket definition, at most {@link #MAX_BATCH} less one (for a reserve). */
    private static List<Waiter> takeBatch(List<Waiter> waiting) {
        TokenBucket bucket = waiting.get(0).bucket;
        List<Waiter> batch = new ArrayList<>(Math.min(waiting.size(), MAX_BATCH - 1));
        int taken = 0;
        while (taken < waiting.size() && batch.size() < MAX_BATCH - 1 && waiting.get(taken).bucket.equals(bucket)) {
            batch.add(waiting.get(taken++));
        }
        waiting.subList(0, taken).clear();
        return batch;
    }

    /** Tokens reserved under the rule's old limits are dropped, never returned: they were taken from the bucket as it was. */
    @Override
    void forgetRuleHere(String rule) {
        lanes.forEach((key, lane) -> {
            if (BucketKeys.ofRule(key, rule)) {
                lane.forget();
            }
        });
    }

    /** Drops what this member holds of the key's reserve: tokens taken from the bucket before it was reset. */
    @Override
    void forgetHere(String key) {
        Lane lane = lanes.get(key);
        if (lane != null) {
            lane.forget();
        }
    }

    @Override
    public void close() {
        sender.shutdown();
        store.close();
    }

    /** One key's calls: the one in flight, the requests waiting for it, and the tokens reserved here. Guarded by itself. */
    private final class Lane {
        final String key;
        boolean inFlight;
        boolean retired;
        boolean expiryScheduled;
        /** Requests waiting for the call in flight; the list made when the first one waits. */
        List<Waiter> waiting = List.of();
        /** Tokens reserved here for {@link #reserveBucket}, until {@link #reserveExpiresNanos}. */
        long reserve;
        TokenBucket reserveBucket;
        long reserveExpiresNanos;
        /** The owner's answer to the last reserve: what the grants from it report. */
        Outcome reserveBasis;
        /** The size of the last reserve asked for. */
        long lastReserve;
        /** How often the lane's reserve was dropped as stale: a reserve asked for before that is not taken when it arrives. */
        long forgotten;
        /** Requests, and their tokens, since the lane's last call left. */
        int demandRequests;
        long demandTokens;

        Lane(String key) {
            this.key = key;
        }

        void await(Waiter waiter) {
            if (waiting.isEmpty()) {
                waiting = new ArrayList<>();
            }
            waiting.add(waiter);
        }

        /** @return a grant of {@code cost} from the reserve, or {@code null} if the reserve does not cover it */
        Outcome takeReserved(TokenBucket bucket, long cost, long now) {
            if (!holdsReserve(now)) {
                return null; // none, or expired: given back by the lane's next call
            }
            if (cost == 0 || cost > reserve || !bucket.equals(reserveBucket)) {
                return null;
            }
            reserve -= cost;
            demandRequests++;
            demandTokens += cost;
            long burst = bucket.burst(reserveBasis.limitIndex());
            return reserveBasis.reservedGrant(Math.min(burst, reserveBasis.remaining() + reserve));
        }

        /**
         * Drops the reserve, and the one on its way: both were taken from the bucket as it was (before a reset, under a
         * rule's old limits), so neither may be granted from, nor given back. (Tokens already on their way back when the
         * key is reset reach the fresh bucket, capped at its burst: at most what this member held, as the docs allow.)
         */
        synchronized void forget() {
            reserve = 0;
            forgotten++;
        }

        /**
         * @return the call that gives back the reserve whose lease ended, or {@code null} if none did; the reserve is
         *         then no longer held here
         */
        Send giveBackExpired(long now) {
            if (reserve <= 0 || holdsReserve(now)) {
                return null;
            }
            long tokens = reserve;
            reserve = 0;
            return new Send(List.of(), reserveBucket, 0, forgotten, tokens);
        }

        /** @return whether the reserve is down to half of the last one asked for: time to ask for the next */
        boolean runningLow() {
            return 2 * reserve <= lastReserve;
        }

        boolean holdsReserve(long now) {
            return reserve > 0 && now - reserveExpiresNanos < 0;
        }

        /** Adds {@code tokens} the owner granted as a reserve; what is left of an earlier one for another rule is dropped. */
        void addReserve(TokenBucket bucket, long tokens, Outcome basis, long expiresNanos) {
            reserve = reserve > 0 && bucket.equals(reserveBucket) ? reserve + tokens : tokens;
            reserveBucket = bucket;
            reserveBasis = basis;
            reserveExpiresNanos = expiresNanos;
        }

        /** The call that takes {@code batch}, with a reserve if the key is hot here and the rule allows one. */
        Send send(List<Waiter> batch, TokenBucket bucket, boolean reserving) {
            long asked = demandTokens;
            for (Waiter waiter : batch) {
                asked += waiter.cost;
            }
            long reserveCap = Math.min(MAX_RESERVE, bucket.maxCost() / RESERVE_SHARE);
            long size = !reserving || demandRequests + batch.size() < HOT_DEMAND || bucket.maxCost() < MIN_RESERVING_BURST ? 0
                    : Math.min(reserveCap, 2 * asked);
            if (size > 0) {
                lastReserve = size;
            }
            if (size > 0 || !batch.isEmpty()) {
                demandRequests = 0; // a call leaves: the count starts again
                demandTokens = 0;
            }
            return new Send(batch, bucket, size, forgotten, 0);
        }
    }

    /**
     * One call to the store: waiting requests, and a reserve of {@code reserve} tokens (0: none), asked for when the lane
     * had been {@code forgotten} that many times; or, with {@code givenBack} more than 0, only the tokens of a reserve
     * whose lease ended, given back to the bucket.
     */
    private record Send(List<Waiter> batch, TokenBucket bucket, long reserve, long forgotten, long givenBack) {
    }

    private static final Outcome[] NONE_DECIDED = new Outcome[0];

    /**
     * What follows a call: the next one, the waiters granted from the reserve (completed outside the lane's lock), and the
     * tokens held here for the call's bucket when its answer came.
     */
    private record Next(Send send, List<Waiter> served, long held) {

        /** Nothing follows: the usual end of a lone request's call, made once. */
        static final Next IDLE = new Next(null, List.of(), 0);

        void completeServed() {
            for (Waiter waiter : served) {
                waiter.result.complete(waiter.reserved);
            }
        }
    }

    private static final class Waiter {
        final TokenBucket bucket;
        final long cost;
        final long arrivedNanos;
        final CompletableFuture<Outcome> result = new CompletableFuture<>();
        /** Its grant from the reserve, set under the lane's lock when one covers it. */
        Outcome reserved;

        Waiter(TokenBucket bucket, long cost, long arrivedNanos) {
            this.bucket = bucket;
            this.cost = cost;
            this.arrivedNanos = arrivedNanos;
        }
    }
}
