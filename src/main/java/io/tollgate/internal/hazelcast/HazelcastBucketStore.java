package io.tollgate.internal.hazelcast;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.EntryView;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.topic.ITopic;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.internal.store.BatchingBucketStore;
import io.tollgate.internal.store.BucketReading;
import io.tollgate.internal.store.CoalescingStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Buckets in a Hazelcast IMap, decided by {@link BucketProcessor}: one round trip per decision,
 * atomic on the owning partition, on the owner's clock. Works with a member or a client instance.
 * Sends the wire version every data member reads ({@link WireVersions}); a client sends version 0.
 *
 * <p>A reset removes the key's entry and then publishes the key on the topic {@code <map>-resets}; every
 * member's store (clients' too) that has made a call listens there from its first call on and has its layers
 * forget the key (see {@link #listenForResets}). Nothing else is ever removed from the map by Tollgate, and
 * the topic carries nothing else, so decisions pay nothing for it.
 */
public final class HazelcastBucketStore implements BatchingBucketStore {

    private static final int WARM_UP_KEYS = 64;
    private static final int WARM_UP_SECONDS = 60;
    /** Why an older member cannot take a {@link RetainProcessor}. */
    private static final String NO_RETAIN = "which cannot keep a bucket for stricter limits";

    private final HazelcastInstance hazelcast;
    private final String mapName;
    private final boolean identified;
    /** How long callers wait; a request of a batch that waited that long is not sent. 0 for no limit. */
    private final long timeoutNanos;
    /** The deadline a decision carries, after {@link #clusterTime}'s now; 0 (on a client) for none. */
    private final long timeoutMillis;
    /** The deadlines' clock; {@code null} without deadlines. */
    private final ClusterTime clusterTime;
    private final WireVersions wire;
    private volatile MapCalls calls;
    /** What this member does with a key reset anywhere; {@code null} until the stack says. */
    private volatile Consumer<String> forget;

    /**
     * @param hazelcast  a member or client; not shut down by this store
     * @param mapName    the IMap holding the buckets
     * @param identified whether every member has {@link Serialization} registered, so the
     *                   processors can travel by type id rather than by class name
     */
    public HazelcastBucketStore(HazelcastInstance hazelcast, String mapName, boolean identified) {
        this(hazelcast, mapName, identified, Duration.ZERO);
    }

    /**
     * @param timeout how long callers wait for a decision. On a member, whose cluster clock is kept
     *                in step with the others, each decision carries the deadline and the owner drops
     *                it unapplied if it only gets to run later: a caller that gave up is not charged.
     *                (A client has no such clock; there a late decision is still applied.) A request
     *                that waited out the timeout in a batch is not sent at all.
     */
    public HazelcastBucketStore(HazelcastInstance hazelcast, String mapName, boolean identified, Duration timeout) {
        this(hazelcast, mapName, identified, timeout, true);
    }

    /**
     * @param advertise on a member, whether it reads what this code writes (Tollgate configured its
     *                  serialization, or registered its factory there): it then advertises the newest
     *                  wire version; else it counts as an old member
     */
    HazelcastBucketStore(HazelcastInstance hazelcast, String mapName, boolean identified, Duration timeout, boolean advertise) {
        this(hazelcast, mapName, identified, timeout, hazelcast.getLocalEndpoint() instanceof Member
                ? WireVersions.negotiated(hazelcast, advertise) : WireVersions.fixed(Serialization.WIRE_V0));
    }

    /** @param wire the wire versions to send; closed with this store */
    HazelcastBucketStore(HazelcastInstance hazelcast, String mapName, boolean identified, Duration timeout, WireVersions wire) {
        this.hazelcast = hazelcast;
        this.mapName = mapName;
        this.identified = identified;
        this.timeoutNanos = timeout.toNanos();
        this.timeoutMillis = hazelcast.getLocalEndpoint() instanceof Member ? timeout.toMillis() : 0;
        this.clusterTime = timeoutMillis == 0 ? null : ClusterTime.of(hazelcast);
        this.wire = wire;
    }

    /** @return the instance the buckets are kept in */
    HazelcastInstance instance() {
        return hazelcast;
    }

    @Override
    public CompletionStage<Outcome> acquire(String key, TokenBucket bucket, long cost) {
        return acquire(key, bucket, cost, new EntryAnswer<>(OutcomeWire::read));
    }

    /** Tells {@code answered} from the call's own future, which makes no other object for it. */
    @Override
    public CompletionStage<Outcome> acquire(String key, TokenBucket bucket, long cost, Answered answered) {
        return acquire(key, bucket, cost, new ToldAnswer(key, bucket, cost, answered));
    }

    /** @return {@code answer}, to one request; a cost out of range, or a call that cannot be made, fails it and is thrown */
    private CompletionStage<Outcome> acquire(String key, TokenBucket bucket, long cost, EntryAnswer<Outcome> answer) {
        try {
            bucket.checkCost(cost);
            return entries().call(key, BucketProcessor.create(bucket, cost, deadline(0), identified, wire.inUse()), answer);
        } catch (RuntimeException e) {
            answer.failed(e); // told, if it tells, and thrown as acquire throws
            throw e;
        }
    }

    /** The answer to one request, told to a layer above before its caller has it. */
    private static final class ToldAnswer extends EntryAnswer<Outcome> {
        private final String key;
        private final TokenBucket bucket;
        private final long cost;
        private final Answered answered;

        ToldAnswer(String key, TokenBucket bucket, long cost, Answered answered) {
            super(OutcomeWire::read);
            this.key = key;
            this.bucket = bucket;
            this.cost = cost;
            this.answered = answered;
        }

        @Override
        void told(Outcome outcome, Throwable failure) {
            answered.answered(key, bucket, cost, outcome, failure);
        }
    }

    /**
     * Sends the requests whose callers still wait as one {@link BatchProcessor}, each with its own
     * deadline (in wire version 0, all with the earliest); those that waited out the timeout are
     * answered {@link Outcome#expired()} without being sent.
     */
    @Override
    public CompletionStage<Outcome[]> acquireAll(String key, TokenBucket bucket, long[] costs, long[] waitedNanos) {
        if (costs.length == 0 || costs.length > CoalescingStore.MAX_BATCH || waitedNanos.length != costs.length) {
            throw new IllegalArgumentException("a batch of " + costs.length + " costs and " + waitedNanos.length
                    + " waiting times: expected 1 to " + CoalescingStore.MAX_BATCH + " of each");
        }
        for (long cost : costs) {
            bucket.checkCost(cost);
        }
        boolean[] gaveUp = new boolean[costs.length];
        int live = 0;
        for (int i = 0; i < costs.length; i++) {
            gaveUp[i] = timeoutNanos > 0 && waitedNanos[i] >= timeoutNanos;
            live += gaveUp[i] ? 0 : 1;
        }
        if (live == 0) {
            Outcome[] none = new Outcome[costs.length];
            Arrays.fill(none, Outcome.expired());
            return CompletableFuture.completedFuture(none);
        }
        long[] liveCosts = new long[live];
        long[] deadlines = new long[live];
        long clusterNow = timeoutMillis == 0 ? 0 : clusterTime.now(hazelcast);
        for (int i = 0, j = 0; i < costs.length; i++) {
            if (!gaveUp[i]) {
                liveCosts[j] = costs[i];
                deadlines[j++] = deadline(clusterNow, waitedNanos[i]);
            }
        }
        int sent = live;
        return entries().call(key, BatchProcessor.create(bucket, liveCosts, deadlines, identified, wire.inUse()),
                answer -> {
                    Outcome[] decided = OutcomeWire.readAll(answer);
                    if (decided.length != sent) {
                        throw new IllegalArgumentException("malformed outcomes: " + decided.length + " for " + sent + " requests");
                    }
                    Outcome[] outcomes = new Outcome[costs.length];
                    for (int i = 0, j = 0; i < costs.length; i++) {
                        outcomes[i] = gaveUp[i] ? Outcome.expired() : decided[j++];
                    }
                    return outcomes;
                });
    }

    /**
     * Reads the entry as the map holds it, on the entry's owner, without touching its access time (an
     * entry view); the time is this member's clock (the system's on a client).
     */
    @Override
    public BucketReading read(String key) {
        EntryView<String, long[]> view = map().getEntryView(key);
        Object value = view == null ? null : view.getValue();
        if (value != null && !(value instanceof long[])) {
            throw new IllegalStateException("a " + value.getClass().getName() + " where the bucket state of '" + key + "' belongs");
        }
        return new BucketReading((long[]) value, MemberClock.of(hazelcast.getLocalEndpoint() instanceof Member ? hazelcast : null).nowMicros());
    }

    /** Removes the entry, then tells every member to forget the key (the topic {@code <map>-resets}). */
    @Override
    public boolean reset(String key) {
        MapCalls current = calls();
        IMap<String, ?> map = current.map(); // whatever the entry holds: it goes
        boolean held = map.remove(key) != null;
        current.resets().publish(key);
        return held;
    }

    @Override
    public void listenForResets(Consumer<String> forget) {
        this.forget = forget;
    }

    /**
     * Sends a {@link RefundProcessor} to the owner. A member sends it only while every data member reads wire
     * version 2 (an older Tollgate would not know it); until then the refund fails here without being sent, and
     * the tokens stay charged. A client cannot know its cluster's versions and sends it: a member without it
     * fails the call, and nothing changes.
     */
    @Override
    public CompletionStage<Outcome> refund(String key, TokenBucket bucket, long tokens) {
        if (tokens < 1) {
            throw new IllegalArgumentException("tokens = " + tokens + ": must be at least 1");
        }
        IllegalStateException older = olderMember(Serialization.WIRE_V2, "which have no refunds");
        return older != null ? CompletableFuture.failedFuture(older)
                : entries().call(key, RefundProcessor.create(bucket, tokens, identified), OutcomeWire::read);
    }

    @Override
    public boolean takesRefunds() {
        return sends(Serialization.WIRE_V2);
    }

    /**
     * Sends a {@link RetainProcessor} to the key's owner. A member sends it only while every data member reads wire
     * version 3; until then it fails here without being sent, and the bucket keeps the time-to-live of its last
     * write. A client sends it: a member without it fails the call, and nothing changes.
     */
    @Override
    public CompletionStage<Void> retain(String key, TokenBucket limits) {
        IllegalStateException older = olderMember(Serialization.WIRE_V3, NO_RETAIN);
        return older != null ? CompletableFuture.failedFuture(older)
                : entries().call(key, RetainProcessor.create(limits, null, Set.of(), identified), answer -> (Void) null);
    }

    /** Runs a {@link RetainProcessor} over the whole map, on every member, waiting for it: as {@link #retain}, for a rule. */
    @Override
    public CompletionStage<Void> retainRule(String rule, TokenBucket limits, Set<String> except) {
        IllegalStateException older = olderMember(Serialization.WIRE_V3, NO_RETAIN);
        if (older != null) {
            return CompletableFuture.failedFuture(older);
        }
        try {
            map().executeOnEntries(RetainProcessor.create(limits, rule, Set.copyOf(except), identified));
            return CompletableFuture.completedFuture(null);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * @return why this member cannot send what only wire version {@code needed} has (a data member of an older
     *         Tollgate is in the cluster), or {@code null}; a client cannot know, and sends it
     */
    private IllegalStateException olderMember(int needed, String which) {
        return sends(needed) ? null : new IllegalStateException("a data member of the cluster reads wire versions up to "
                + wire.inUse() + " only (an older Tollgate), " + which);
    }

    /** @return whether this store sends what only wire version {@code needed} has: a client always does */
    private boolean sends(int needed) {
        return !(hazelcast.getLocalEndpoint() instanceof Member) || wire.inUse() >= needed;
    }

    /** @return the wire version this store sends now (for tests) */
    int wireVersion() {
        return wire.inUse();
    }

    /** @return the IMap holding the buckets */
    String mapName() {
        return mapName;
    }

    /** Ends this store's share of the wire version negotiation, and stops listening for resets. */
    @Override
    public void close() {
        wire.close();
        MapCalls current = calls;
        if (current != null) {
            try {
                current.resets().removeMessageListener(current.listener());
            } catch (RuntimeException e) {
                // the instance is gone already, and the listener with it
            }
        }
    }

    /** @return the cluster time after which the owner must not apply the decision, or 0 */
    private long deadline(long waitedNanos) {
        return deadline(timeoutMillis == 0 ? 0 : clusterTime.now(hazelcast), waitedNanos);
    }

    /** @return the cluster time after which the owner must not apply a request that waited {@code waitedNanos}, or 0 */
    private long deadline(long clusterNow, long waitedNanos) {
        return timeoutMillis == 0 ? 0 : clusterNow + timeoutMillis - waitedNanos / 1_000_000;
    }

    /**
     * Sends read-only checks (cost 0), single and batched, to keys spread over the partitions, and waits
     * until each is answered, so every member is ready. They carry no deadline: they are no user's
     * decisions, and a slow start must not drop them.
     */
    @Override
    public void warmUp(TokenBucket bucket) throws Exception {
        List<CompletableFuture<?>> pending = new ArrayList<>();
        for (int i = 0; i < WARM_UP_KEYS; i++) {
            String key = "tollgate-warm-up:" + i;
            pending.add((i % 2 == 0
                    ? entries().call(key, BucketProcessor.create(bucket, 0, 0, identified, wire.inUse()), OutcomeWire::read)
                    : entries().call(key, BatchProcessor.create(bucket, new long[] {0, 0}, new long[2], identified, wire.inUse()), OutcomeWire::readAll)));
        }
        try {
            CompletableFuture.allOf(pending.toArray(new CompletableFuture<?>[0])).get(WARM_UP_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new TimeoutException("no answer within " + WARM_UP_SECONDS + " s");
        }
    }

    /** @return the IMap behind this store; looked up on first use (a client may not be connected yet) */
    public IMap<String, long[]> map() {
        return calls().map();
    }

    /** @return how this store calls its map's entries; found on first use, with the map */
    private EntryCalls entries() {
        return calls().entries();
    }

    /**
     * The map and the resets' topic, with this store listening there: from its first call on, before anything
     * this member could remember of a key (a denial, a reserve) exists.
     */
    private MapCalls calls() {
        MapCalls current = calls;
        if (current == null) {
            synchronized (this) {
                current = calls;
                if (current == null) {
                    IMap<String, long[]> map = hazelcast.getMap(mapName);
                    ITopic<String> resets = hazelcast.getTopic(mapName + "-resets");
                    UUID listener = resets.addMessageListener(message -> {
                        Consumer<String> local = forget;
                        if (local != null) {
                            local.accept(message.getMessageObject());
                        }
                    });
                    current = new MapCalls(map, EntryCalls.of(map), resets, listener);
                    calls = current;
                }
            }
        }
        return current;
    }

    /** A map, how to call its entries, and the topic of its resets, published together. */
    private record MapCalls(IMap<String, long[]> map, EntryCalls entries, ITopic<String> resets, UUID listener) {
    }
}
