package io.tollgate.internal.hazelcast;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.internal.store.BucketStore;
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

    private final IMap<String, long[]> map;
    private final boolean identified;

    /**
     * @param hazelcast  a member or client; not shut down by this store
     * @param mapName    the IMap holding the buckets
     * @param identified whether every member has {@link TollgateSerialization} registered, so the
     *                   processors can travel by type id rather than by class name
     */
    public HazelcastBucketStore(HazelcastInstance hazelcast, String mapName, boolean identified) {
        this.map = hazelcast.getMap(mapName);
        this.identified = identified;
    }

    @Override
    public CompletionStage<Outcome> acquire(String key, TokenBucket bucket, long cost) {
        bucket.checkCost(cost);
        return map.submitToKey(key, BucketProcessor.create(bucket, cost, identified))
                .thenApplyAsync(Outcome::fromWire, IN_PLACE);
    }

    /** @return the IMap behind this store */
    public IMap<String, long[]> map() {
        return map;
    }
}
