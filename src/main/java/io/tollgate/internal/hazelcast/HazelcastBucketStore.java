package io.tollgate.internal.hazelcast;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.internal.store.BucketStore;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * Buckets in a Hazelcast IMap, decided by {@link BucketProcessor}: one round trip per decision,
 * atomic on the owning partition, on the owner's clock. Works with a member or a client instance.
 */
public final class HazelcastBucketStore implements BucketStore {

    /**
     * Decodes the five-long answer on the thread that received it. Hazelcast's default for
     * callbacks is the common pool, which on a 2-core machine means a new thread per callback.
     */
    private static final Executor IN_PLACE = Runnable::run;

    private static final int WARM_UP_KEYS = 64;
    private static final int WARM_UP_SECONDS = 60;

    private final HazelcastInstance hazelcast;
    private final String mapName;
    private final boolean identified;
    private final long timeoutMillis;
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
    }

    @Override
    public CompletionStage<Outcome> acquire(String key, TokenBucket bucket, long cost) {
        bucket.checkCost(cost);
        long deadline = timeoutMillis == 0 ? 0 : hazelcast.getCluster().getClusterTime() + timeoutMillis;
        return map().submitToKey(key, BucketProcessor.create(bucket, cost, deadline, identified))
                .thenApplyAsync(Outcome::fromWire, IN_PLACE);
    }

    /** Sends a read-only check (cost 0) to keys spread over the partitions, so every member is ready. */
    @Override
    public void warmUp(TokenBucket bucket) throws Exception {
        java.util.List<java.util.concurrent.CompletableFuture<Outcome>> pending = new java.util.ArrayList<>();
        for (int i = 0; i < WARM_UP_KEYS; i++) {
            pending.add(acquire("tollgate-warm-up:" + i, bucket, 0).toCompletableFuture());
        }
        java.util.concurrent.CompletableFuture.allOf(pending.toArray(new java.util.concurrent.CompletableFuture<?>[0]))
                .get(WARM_UP_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
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
