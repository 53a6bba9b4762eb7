package io.tollgate.internal.hazelcast;

import io.tollgate.internal.store.BucketStore;
import io.tollgate.internal.store.BucketStoreContract;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.SharedCluster;
import io.tollgate.testing.TestClock;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The store contract with processors sent as plain {@code DataSerializable}, the form used on a
 * server's own Hazelcast instance where Tollgate's factory is not registered.
 */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
class HazelcastDataSerializableStoreTest extends BucketStoreContract {

    private final HazelcastTestCluster cluster;
    private final BucketStore store;

    HazelcastDataSerializableStoreTest(HazelcastTestCluster cluster) {
        this.cluster = cluster;
        this.store = new RoundRobinStore(cluster.members().stream()
                .map(m -> new HazelcastBucketStore(m, BucketMapConfig.DEFAULT_MAP_NAME, false))
                .collect(Collectors.toList()));
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
