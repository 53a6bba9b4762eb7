package io.tollgate.internal.hazelcast;

import io.tollgate.internal.store.BucketStore;
import io.tollgate.internal.store.BucketStoreContract;
import io.tollgate.internal.store.StoreStack;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.SharedCluster;
import io.tollgate.testing.TestClock;
import java.time.Duration;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The store contract with every member sending wire version 0, as members do while an older
 * Tollgate is in the cluster: single decisions and coalesced batches, by type id, from each member.
 */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
class HazelcastWireV0StoreTest extends BucketStoreContract {

    private final HazelcastTestCluster cluster;
    private final BucketStore store;

    HazelcastWireV0StoreTest(HazelcastTestCluster cluster) {
        this.cluster = cluster;
        TestClock clock = cluster.clock();
        this.store = new RoundRobinStore(cluster.members().stream()
                .map(m -> new StoreStack(true, 1_000).over(new HazelcastBucketStore(m, BucketMapConfig.DEFAULT_MAP_NAME, true,
                        Duration.ZERO, WireVersions.fixed(Serialization.WIRE_V0)), () -> clock.nowMicros() * 1_000))
                .collect(Collectors.toList()));
    }

    @Override
    protected BucketStore store() {
        return store;
    }

    /** Members that send version 0 send no refunds: an older member could not read one. */
    @Override
    protected boolean takesRefunds() {
        return false;
    }

    @Override
    protected TestClock clock() {
        return cluster.clock();
    }
}
