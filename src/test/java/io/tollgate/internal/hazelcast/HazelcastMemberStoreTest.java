package io.tollgate.internal.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.internal.store.BucketStore;
import io.tollgate.internal.store.BucketStoreContract;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.SharedCluster;
import io.tollgate.testing.TestClock;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
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
    void backupsHoldTheStateTheOwnerWroteAndDenialsWriteNothing() throws Exception {
        String mapName = "backups-" + key("map").replace(':', '-');
        for (var member : cluster.members()) {
            member.getConfig().addMapConfig(BucketMapConfig.create(mapName, 1000, 1));
        }
        try (HazelcastBucketStore store = new HazelcastBucketStore(cluster.member(0), mapName, true)) {
            TokenBucket bucket = TokenBucket.of(Limit.of(10, 1, Duration.ofHours(1)));
            for (int i = 0; i < 20; i++) {
                assertThat(store.acquire(key("backup-" + i), bucket, 4).toCompletableFuture().get(30, TimeUnit.SECONDS).allowed()).isTrue();
            }
            long owned = 0;
            long backups = 0;
            for (var member : cluster.members()) {
                var stats = member.getMap(mapName).getLocalMapStats();
                owned += stats.getOwnedEntryCount();
                backups += stats.getBackupEntryCount();
            }
            assertThat(owned).isEqualTo(20);
            assertThat(backups).isEqualTo(20);
            // a denial neither adds entries nor changes the one there is
            String key = key("backup-0");
            long[] before = store.map().get(key);
            assertThat(store.acquire(key, bucket, 7).toCompletableFuture().get(30, TimeUnit.SECONDS).allowed()).isFalse();
            assertThat(store.map().get(key)).isEqualTo(before);
            assertThat(before[2]).isEqualTo(6 * Limit.of(10, 1, Duration.ofHours(1)).unitsPerToken());
            assertThat(store.acquire(key("never-charged"), bucket, 0).toCompletableFuture().get(30, TimeUnit.SECONDS).allowed()).isTrue();
            assertThat(store.map().size()).isEqualTo(20);
            store.map().destroy();
        }
    }

    @Test
    void aMalformedStoredStateIsRefusedAndLeftAsItWas() throws Exception {
        try (HazelcastBucketStore store = new HazelcastBucketStore(cluster.member(0), BucketMapConfig.DEFAULT_MAP_NAME, true)) {
            TokenBucket bucket = TokenBucket.of(Limit.of(10, 1, Duration.ofHours(1)));
            for (int i = 0; i < 6; i++) { // keys on every member: remote and local owners
                String key = key("malformed-" + i);
                long[] garbage = {cluster.clock().nowMicros(), 0, 5};
                store.map().put(key, garbage);
                Throwable single = catchThrowable(() -> store.acquire(key, bucket, 1).toCompletableFuture().get(30, TimeUnit.SECONDS));
                Throwable batch = catchThrowable(() -> store.acquireAll(key, bucket, new long[] {1, 1}, new long[2])
                        .toCompletableFuture().get(30, TimeUnit.SECONDS));
                for (Throwable failure : new Throwable[] {single, batch}) {
                    assertThat(failure).isInstanceOf(ExecutionException.class);
                    assertThat(failure.getCause()).hasMessage("Tollgate refuses to decide on bucket '" + key + "': malformed bucket state: "
                            + "limit 0 has 0 units per token, outside [1, 2^61]; nothing was written");
                }
                assertThat(store.map().get(key)).isEqualTo(garbage);
                store.map().delete(key);
            }
        }
    }
}
