package io.tollgate.internal.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.core.HazelcastInstance;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.internal.store.CoalescingStore;
import io.tollgate.testing.HazelcastTestCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Members that started without Tollgate's factory (a server's own instance) get it registered by
 * the application deployed on each; decisions, batches and backups then travel by type id.
 */
@Tag("hazelcast")
class LateFactoryRegistrationTest {

    @Test
    void membersThatStartedWithoutTheFactoryLearnItAndForgetItAgain() throws Exception {
        try (HazelcastTestCluster cluster = HazelcastTestCluster.start(2, false)) {
            TokenBucket bucket = TokenBucket.of(Limit.of(5, 1, Duration.ofHours(1)));
            HazelcastInstance caller = cluster.member(0);
            HazelcastBucketStore store = new HazelcastBucketStore(caller, "late-factory", true);
            String remote = remoteKey(cluster, caller);

            // without the factory, a remote member cannot read the processor by type id
            assertThatThrownBy(() -> store.acquire(remote, bucket, 1).toCompletableFuture().get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class);

            List<LateFactoryRegistration> registrations = new ArrayList<>();
            for (HazelcastInstance member : cluster.members()) {
                LateFactoryRegistration registration = LateFactoryRegistration.register(member);
                assertThat(registration).isNotNull();
                registrations.add(registration);
            }
            assertThat(acquire(store, remote, bucket, 2).remaining()).isEqualTo(3);
            Outcome[] batch = store.acquireAll(remote, bucket, new long[] {1, 1, 2}, new long[3]).toCompletableFuture().get(30, TimeUnit.SECONDS);
            assertThat(batch[0].remaining()).isEqualTo(2);
            assertThat(batch[1].remaining()).isEqualTo(1);
            assertThat(batch[2].allowed()).isFalse();
            // the backups were written too: the other member's copy says 1 token
            long backups = 0;
            for (HazelcastInstance member : cluster.members()) {
                backups += member.getMap("late-factory").getLocalMapStats().getBackupEntryCount();
            }
            assertThat(backups).isEqualTo(1);
            try (CoalescingStore coalescing = new CoalescingStore(store)) {
                assertThat(coalescing.acquire(remote, bucket, 1).toCompletableFuture().get(30, TimeUnit.SECONDS).allowed()).isTrue();
            }

            registrations.forEach(LateFactoryRegistration::undo);
            assertThatThrownBy(() -> store.acquire(remote, bucket, 1).toCompletableFuture().get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class);
        }
    }

    private static Outcome acquire(HazelcastBucketStore store, String key, TokenBucket bucket, long cost) throws Exception {
        return store.acquire(key, bucket, cost).toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    private static String remoteKey(HazelcastTestCluster cluster, HazelcastInstance caller) {
        for (int i = 0; ; i++) {
            String key = BucketKeys.of("late", "k" + i);
            if (cluster.ownerOf(key) != caller) {
                return key;
            }
        }
    }
}
