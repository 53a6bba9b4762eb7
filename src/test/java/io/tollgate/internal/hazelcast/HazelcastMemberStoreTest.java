package io.tollgate.internal.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.internal.store.BucketStore;
import io.tollgate.internal.store.BucketStoreContract;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.SharedCluster;
import io.tollgate.testing.TestClock;
import java.time.Duration;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The store contract on a 3-member cluster, each call made from the next member in turn. */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
class HazelcastMemberStoreTest extends BucketStoreContract {

    private final HazelcastTestCluster cluster;
    private final BucketStore store;

    HazelcastMemberStoreTest(HazelcastTestCluster cluster) {
        this.cluster = cluster;
        this.store = new RoundRobinStore(cluster.members().stream()
                .map(m -> new HazelcastBucketStore(m, BucketMapConfig.DEFAULT_MAP_NAME, true))
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

    @Test
    void backupsHoldTheStateTheOwnerWrote() {
        String key = key("backup");
        TokenBucket bucket = TokenBucket.of(Limit.of(10, 1, Duration.ofHours(1)));
        acquire(key, bucket, 4);
        long owned = 0;
        long backups = 0;
        for (var member : cluster.members()) {
            var stats = member.getMap(BucketMapConfig.DEFAULT_MAP_NAME).getLocalMapStats();
            owned += stats.getOwnedEntryCount();
            backups += stats.getBackupEntryCount();
        }
        assertThat(backups).isEqualTo(owned);
        // a denial neither adds entries nor changes the one there is
        acquire(key, bucket, 7);
        assertThat(cluster.member(0).<String, long[]>getMap(BucketMapConfig.DEFAULT_MAP_NAME).get(key)[2])
                .isEqualTo(6 * Limit.of(10, 1, Duration.ofHours(1)).unitsPerToken());
    }
}
