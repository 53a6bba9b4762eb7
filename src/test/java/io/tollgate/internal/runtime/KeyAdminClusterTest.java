package io.tollgate.internal.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.BucketStatus;
import io.tollgate.RateLimitAdmin;
import io.tollgate.RateLimiter;
import io.tollgate.internal.config.TollgateConfig;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.internal.hazelcast.HazelcastBucketStore;
import io.tollgate.internal.limiter.DecisionObserver;
import io.tollgate.internal.store.Bans;
import io.tollgate.internal.store.BucketStore;
import io.tollgate.internal.store.StoreStack;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.SharedCluster;
import io.tollgate.testing.TestApp;
import io.tollgate.testing.TestRules;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The operator's inspect and reset on a real 3-member cluster, each member with the store stack a deployment
 * runs (denial cache, coalescing) and its own {@link KeyAdmin}: what one member charged, another reads
 * exactly; a reset on one member makes the bucket full on all of them, the member that had cached a denial
 * for the key included.
 */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
class KeyAdminClusterTest {

    private static final String RULE = "api";
    private final TollgateConfig config = TestRules.read(Map.of(
            "tollgate.rules.api.limits", "1/1h burst 5, 100/1d",
            "tollgate.rules.api.key", "header:X-Api-Key"));
    private final TokenBucket bucket = config.rule(RULE).bucket();
    private final List<BucketStore> stacks = new ArrayList<>();
    private final List<KeyAdmin> admins = new ArrayList<>();
    private final HazelcastTestCluster cluster;
    private final String map = "admin-" + UUID.randomUUID();

    KeyAdminClusterTest(HazelcastTestCluster cluster) {
        this.cluster = cluster;
        for (var member : cluster.members()) {
            BucketStore stack = StoreStack.DEFAULT.over(new HazelcastBucketStore(member, map, true, Duration.ofSeconds(10)));
            stacks.add(stack);
            admins.add(new KeyAdmin(config, stack, Bans.local(stack), null, DecisionObserver.NONE)); // the rule has no ban; no denials followed
        }
    }

    @AfterEach
    void close() {
        stacks.forEach(BucketStore::close);
    }

    @Test
    void inspectReadsWhatAnotherMemberChargedAndChangesNothing() throws Exception {
        String key = "key-" + UUID.randomUUID();
        assertThat(acquire(0, key, 3).allowed()).isTrue();

        BucketStatus status = admins.get(1).inspect(RULE, key);
        assertThat(status.fromStore()).isTrue();
        assertThat(status.found()).isTrue();
        assertThat(status.rule()).isEqualTo(RULE);
        assertThat(status.keyHash()).isEqualTo(BucketKeys.hash(key)).doesNotContain(key);
        assertThat(status.limits()).extracting(BucketStatus.LimitStatus::remaining).containsExactly(2L, 97L);
        assertThat(status.limits()).extracting(BucketStatus.LimitStatus::burst).containsExactly(5L, 100L);
        assertThat(status.limits().get(0).untilFull()).isGreaterThan(Duration.ofHours(2)).isLessThanOrEqualTo(Duration.ofHours(3));
        assertThat(status.full()).isFalse();
        assertThat(admins.get(2).inspect(RULE, key)).isEqualTo(status); // reading again changed nothing
        assertThat(acquire(2, key, 2).remaining()).isZero(); // the two tokens inspect saw are there, and no more
        assertThat(acquire(1, key, 1).allowed()).isFalse();

        String untouched = "key-" + UUID.randomUUID();
        BucketStatus fresh = admins.get(0).inspect(RULE, untouched);
        assertThat(fresh.full()).isTrue();
        assertThat(fresh.found()).as("no bucket stored").isFalse();
        assertThat(fresh.limits()).extracting(BucketStatus.LimitStatus::untilFull).containsOnly(Duration.ZERO);
        assertThat(cluster.member(0).getMap(map).containsKey(BucketKeys.of(RULE, untouched))).isFalse(); // a read writes nothing
    }

    @Test
    void resetOnOneMemberMakesTheKeyFullOnEveryMemberEvenWhereADenialWasCached() throws Exception {
        String key = "key-" + UUID.randomUUID();
        assertThat(acquire(2, key, 5).allowed()).isTrue();
        Outcome denied = acquire(2, key, 1);
        assertThat(denied.allowed()).isFalse();
        assertThat(denied.retryAfterMicros()).isGreaterThan(TimeUnit.MINUTES.toMicros(50)); // member 2 now denies it by itself
        assertThat(acquire(2, key, 1).allowed()).isFalse();

        BucketStatus reset = admins.get(0).reset(RULE, key);
        assertThat(reset.full()).isTrue();
        assertThat(reset.found()).as("the reset removed a bucket").isTrue();
        assertThat(reset.limits()).extracting(BucketStatus.LimitStatus::remaining).containsExactly(5L, 100L);
        assertThat(admins.get(1).reset(RULE, key).found()).as("reset again, from another member: none left").isFalse();

        // member 2 hears of the reset through the cluster; until then its cache denies, charging nothing
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        Outcome after = acquire(2, key, 1);
        while (!after.allowed() && System.nanoTime() < deadline) {
            Thread.sleep(20);
            after = acquire(2, key, 1);
        }
        assertThat(after.allowed()).as("member 2 allows the reset key again").isTrue();
        assertThat(after.remaining()).isEqualTo(4);
        assertThat(acquire(1, key, 4).remaining()).isZero(); // exactly the burst again, from any member
        assertThat(admins.get(1).inspect(RULE, key).limits().get(0).remaining()).isZero();
    }

    @Test
    void anUnknownRuleOrANullKeyIsRefusedAndChangesNothing() throws Exception {
        String key = "key-" + UUID.randomUUID();
        acquire(0, key, 5);
        assertThatThrownBy(() -> admins.get(0).reset("nope", key)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("rule = 'nope': no such rule; configured rules are [api]");
        assertThatThrownBy(() -> admins.get(0).reset(null, key)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> admins.get(1).reset(RULE, null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("key = null: a bucket key is a string (the empty one included)");
        assertThatThrownBy(() -> admins.get(1).inspect("nope", key)).isInstanceOf(IllegalArgumentException.class);
        assertThat(admins.get(2).inspect(RULE, key).limits().get(0).remaining()).isZero();
    }

    /** As deployed: the injected RateLimitAdmin over the store Tollgate opens on the application's member. */
    @Test
    void theInjectedAdminInspectsAndResetsOnTheDeployedStore() throws Exception {
        String key = "key-" + UUID.randomUUID();
        try (TestApp app = TestApp.builder().hazelcast(cluster.member(1)).property("tollgate.hazelcast.map", map)
                .property("tollgate.rules.api.limits", "1/1h burst 5, 100/1d").start()) {
            RateLimitAdmin admin = app.bean(RateLimitAdmin.class);
            assertThat(app.bean(RateLimiter.class).tryAcquire(RULE, key, 5).allowed()).isTrue();
            assertThat(app.bean(RateLimiter.class).tryAcquire(RULE, key, 1).allowed()).isFalse();
            assertThat(admin.inspect(RULE, key).limits()).extracting(BucketStatus.LimitStatus::remaining).containsExactly(0L, 95L);
            assertThat(admins.get(0).inspect(RULE, key).limits().get(0).remaining()).isZero(); // another member reads the same
            assertThat(admin.reset(RULE, key).full()).isTrue();
            assertThat(app.bean(RateLimiter.class).tryAcquire(RULE, key, 5).allowed()).isTrue();
        }
    }

    private Outcome acquire(int member, String key, long cost) throws Exception {
        return stacks.get(member).acquire(BucketKeys.of(RULE, key), bucket, cost).toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
}
