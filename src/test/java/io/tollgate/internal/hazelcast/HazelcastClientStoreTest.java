package io.tollgate.internal.hazelcast;

import io.tollgate.internal.store.BucketStore;
import io.tollgate.internal.store.BucketStoreContract;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.SharedCluster;
import io.tollgate.testing.TestClock;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/** The store contract through a Hazelcast client: decisions still run on the owning member. */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
class HazelcastClientStoreTest extends BucketStoreContract {

    private final HazelcastTestCluster cluster;
    private final BucketStore store;

    HazelcastClientStoreTest(HazelcastTestCluster cluster) {
        this.cluster = cluster;
        this.store = new HazelcastBucketStore(cluster.client(), BucketMapConfig.DEFAULT_MAP_NAME, true);
    }

    @Override
    protected BucketStore store() {
        return store;
    }

    @Override
    protected TestClock clock() {
        return cluster.clock();
    }
}
