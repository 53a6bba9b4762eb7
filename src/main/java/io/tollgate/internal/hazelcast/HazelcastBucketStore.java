package io.tollgate.internal.hazelcast;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.internal.store.BatchingBucketStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * Buckets in a Hazelcast IMap, decided by {@link BucketProcessor}: one round trip per decision,
 * atomic on the owning partition, on the owner's clock. Works with a member or a client instance.
 */
public final class HazelcastBucketStore implements BatchingBucketStore {

    private static final Executor IN_PLACE = Runnable::run;

    private static final int WARM_UP_KEYS = 64;
    private static final int WARM_UP_SECONDS = 60;

    private final HazelcastInstance hazelcast;
    private final String mapName;
    private final boolean identified;
    private final long timeoutMillis;
    /** The deadlines' clock; {@code null} without deadlines. */
    private final ClusterTime clusterTime;
    private volatile IMap<String, long[]> map;

    /**
     * @param hazelcast  a member or client; not shut down by this store
     * @param mapName    the IMap holding the buckets
     * @param identified whether every member has {@link TollgateSerialization} registered, so the
     *                   processors can travel by type id rather than by class name
     */
    public HazelcastBucketStore(HazelcastInstance hazelcast, String mapName, boolean identified) {
        this(hazelcast, mapName, identified, Duration.ZERO);
    }

    /**
     * @param timeout how long callers wait for a decision. On a member, whose cluster clock is kept
     *                in step with the others, each decision carries the deadline and the owner drops
     *                it unapplied if it only gets to run later: a caller that gave up is not charged.
     *                (A client has no such clock; there a late decision is still applied.)
     */
    public HazelcastBucketStore(HazelcastInstance hazelcast, String mapName, boolean identified, Duration timeout) {
        this.hazelcast = hazelcast;
        this.mapName = mapName;
        this.identified = identified;
        this.timeoutMillis = hazelcast.getLocalEndpoint() instanceof Member ? timeout.toMillis() : 0;
        this.clusterTime = timeoutMillis == 0 ? null : ClusterTime.of(hazelcast);
    }

    @Override
    public CompletionStage<Outcome> acquire(String key, TokenBucket bucket, long cost) {
        bucket.checkCost(cost);
        return decoded(map().submitToKey(key, BucketProcessor.create(bucket, cost, deadline(0), identified)), Outcome::fromWire);
    }

    @Override
    public CompletionStage<Outcome[]> acquireAll(String key, TokenBucket bucket, long[] costs, long waitedNanos) {
        for (long cost : costs) {
            bucket.checkCost(cost);
        }
        return decoded(map().submitToKey(key, BatchProcessor.create(bucket, costs, deadline(waitedNanos), identified)),
                Outcome::fromWireAll);
    }

    /** @return the cluster time after which the owner must not apply the decision, or 0 */
    private long deadline(long waitedNanos) {
        return timeoutMillis == 0 ? 0 : clusterTime.now(hazelcast) + timeoutMillis - waitedNanos / 1_000_000;
    }

    /**
     * Decodes the answer on the thread that received it, into a plain {@link CompletableFuture}:
     * Hazelcast's own futures run callbacks on the common pool, which on a 2-core machine means a
     * new thread per callback.
     */
    private static <T> CompletionStage<T> decoded(CompletionStage<long[]> invocation, Function<long[], T> decoder) {
        CompletableFuture<T> result = new CompletableFuture<>();
        invocation.whenCompleteAsync((wire, failure) -> {
            if (failure != null) {
                result.completeExceptionally(failure);
                return;
            }
            try {
                result.complete(decoder.apply(wire));
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            }
        }, IN_PLACE);
        return result;
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
                    ? decoded(map().submitToKey(key, BucketProcessor.create(bucket, 0, 0, identified)), Outcome::fromWire)
                    : decoded(map().submitToKey(key, BatchProcessor.create(bucket, new long[] {0, 0}, 0, identified)), Outcome::fromWireAll))
                    .toCompletableFuture());
        }
        try {
            CompletableFuture.allOf(pending.toArray(new CompletableFuture<?>[0])).get(WARM_UP_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new TimeoutException("no answer within " + WARM_UP_SECONDS + " s");
        }
    }

    /** @return the IMap behind this store; looked up on first use (a client may not be connected yet) */
    public IMap<String, long[]> map() {
        IMap<String, long[]> current = map;
        if (current == null) {
            current = hazelcast.getMap(mapName);
            map = current;
        }
        return current;
    }
}
