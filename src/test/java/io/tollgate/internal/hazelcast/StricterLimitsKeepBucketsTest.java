package io.tollgate.internal.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.tollgate.internal.config.ConfigReader;
import io.tollgate.internal.config.RuleEditor;
import io.tollgate.internal.config.Settings;
import io.tollgate.internal.config.TollgateConfig;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.internal.limiter.Limiter;
import io.tollgate.internal.runtime.LiveRules;
import io.tollgate.internal.store.BucketStore;
import io.tollgate.internal.store.StoreStack;
import io.tollgate.testing.Await;
import io.tollgate.testing.HazelcastTestCluster;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * A bucket drained under looser limits is kept until stricter ones have refilled it, on a real cluster whose map
 * expires entries on the system clock: a denial writes nothing, so without this it would expire as the old limits
 * say (within 3 s here) and come back full. Each case waits until a control bucket, written at the same moment
 * under the same old limits and not kept, has expired.
 */
@Tag("hazelcast")
@Execution(ExecutionMode.CONCURRENT) // mostly waits: runs beside other classes
@ResourceLock("StricterLimitsKeepBucketsTest")
class StricterLimitsKeepBucketsTest {

    private static final TokenBucket FAST = TokenBucket.of(Limit.of(100, 100, Duration.ofSeconds(1)));
    private static final TokenBucket SLOW = TokenBucket.of(Limit.of(100, 1, Duration.ofHours(1)));

    @Test
    void aBucketKeptForStricterLimitsOutlivesTheTimeToLiveOfItsLastWrite() throws Exception {
        try (HazelcastTestCluster cluster = HazelcastTestCluster.start(2)) {
            cluster.clock().useSystemTime();
            advertiseOnEveryMember(cluster);
            keptFor(cluster.member(1), cluster.member(0).getMap("tollgate-kept-" + UUID.randomUUID()));
            keptFor(cluster.client(), cluster.member(0).getMap("tollgate-kept-" + UUID.randomUUID()));
        }
    }

    private static void keptFor(HazelcastInstance instance, IMap<String, long[]> map) throws Exception {
        HazelcastBucketStore store = new HazelcastBucketStore(instance, map.getName(), true);
        String kept = BucketKeys.of("plan", "downgraded");
        String control = BucketKeys.of("plan", "control");
        assertThat(store.acquire(kept, FAST, 100).toCompletableFuture().get(30, TimeUnit.SECONDS).allowed()).isTrue();
        assertThat(store.acquire(control, FAST, 100).toCompletableFuture().get(30, TimeUnit.SECONDS).allowed()).isTrue();
        assertThat(store.acquire(kept, SLOW, 1).toCompletableFuture().get(30, TimeUnit.SECONDS).allowed()).isFalse();
        store.retain(kept, SLOW).toCompletableFuture().get(30, TimeUnit.SECONDS);

        Await.until("the control bucket expired", Duration.ofSeconds(60), () -> !map.containsKey(control));
        assertThat(map.containsKey(kept)).as("kept for the slow limits").isTrue();
        assertThat(store.acquire(kept, SLOW, 1).toCompletableFuture().get(30, TimeUnit.SECONDS).allowed())
                .as("seconds at 1/h refill no token").isFalse();
        store.retain(BucketKeys.of("plan", "never-stored"), SLOW).toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertThat(map.containsKey(BucketKeys.of("plan", "never-stored"))).as("a missing bucket stays missing").isFalse();
        map.destroy();
    }

    /** The operator path: a live change of a rule keeps its buckets, and those of another rule expire as before. */
    @Test
    void aLiveChangeToStricterLimitsKeepsTheRulesDrainedBuckets() throws Exception {
        try (HazelcastTestCluster cluster = HazelcastTestCluster.start(2)) {
            cluster.clock().useSystemTime();
            String map = "tollgate-live-" + UUID.randomUUID();
            // Buckets that refill in 10 s: the change reaches them before they could expire at the old limits, even
            // on a loaded machine (with 1 s, a change arriving after that second found them gone, rightly: full again).
            Settings settings = Settings.of(Map.of("tollgate.config.refresh", "off",
                    "tollgate.rules.search.rate", "100/10s", "tollgate.rules.search.burst", "100",
                    "tollgate.rules.other.rate", "100/10s", "tollgate.rules.other.burst", "100"));
            TollgateConfig config = ConfigReader.read(settings, List.of());
            advertiseOnEveryMember(cluster);
            BucketStore store = StoreStack.DEFAULT.over(new HazelcastBucketStore(cluster.member(1), map, true));
            try (LiveRules rules = new LiveRules(config, new RuleEditor(settings, List.of(), config), store,
                    HazelcastStores.sharedRules(cluster.member(1), map + "-rules"), event -> { }, () -> "ops").start()) {
                Limiter limiter = new Limiter(store, Duration.ofSeconds(10));
                for (String[] bucket : new String[][] {{"search", "client"}, {"other", "client"}, {"search", "acme"}}) {
                    assertThat(limiter.check(config.rule(bucket[0]), bucket[1], 100).allowed()).as("drained at once").isTrue();
                }

                rules.change("search", Map.of("limits", "1/1h burst 100"));
                rules.override("search", "acme", "2/1h burst 100");

                IMap<String, long[]> entries = cluster.member(0).getMap(map);
                Await.until("the other rule's bucket expired", Duration.ofSeconds(60),
                        () -> !entries.containsKey(BucketKeys.of("other", "client")));
                assertThat(entries.containsKey(BucketKeys.of("search", "client"))).isTrue();
                assertThat(granted(limiter, config, "search", "client", 10)).as("seconds at 1/h").isZero();
                assertThat(granted(limiter, config, "search", "acme", 10)).as("seconds at 2/h, the override").isZero();
                assertThat(limiter.check(config.rule("other"), "client", 100).allowed()).as("full again").isTrue();
            } finally {
                store.close();
            }
        }
    }

    /**
     * A member sends what only the newest wire version has once every data member is known to read it: a Tollgate
     * store on each member advertises it, as the application deployed on each would.
     */
    private static void advertiseOnEveryMember(HazelcastTestCluster cluster) {
        List<HazelcastBucketStore> stores = List.of(new HazelcastBucketStore(cluster.member(0), "tollgate-advertise", true),
                new HazelcastBucketStore(cluster.member(1), "tollgate-advertise", true));
        for (HazelcastBucketStore store : stores) {
            Await.until("every member reads wire version " + Serialization.WIRE_VERSION, Duration.ofSeconds(60),
                    () -> store.wireVersion() == Serialization.WIRE_VERSION);
        }
    }

    private static int granted(Limiter limiter, TollgateConfig config, String rule, String key, int attempts) {
        int granted = 0;
        for (int i = 0; i < attempts; i++) {
            if (limiter.check(config.rule(rule), key, 1).allowed()) {
                granted++;
            }
        }
        return granted;
    }
}
