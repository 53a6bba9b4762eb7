package io.tollgate.internal.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.internal.config.ConfigReader;
import io.tollgate.internal.config.RuleEditor;
import io.tollgate.internal.config.Settings;
import io.tollgate.internal.config.TollgateConfig;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.runtime.LiveRules;
import io.tollgate.internal.store.Bans;
import io.tollgate.internal.store.BucketStore;
import io.tollgate.internal.store.StoreStack;
import io.tollgate.testing.Await;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.SharedCluster;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One write to the shared maps by anything but Tollgate (anyone who can write to the cluster): a ban that never ends,
 * a ban of another type, a rule change that is no rule change. None of them denies a key, stops a member from
 * starting, or blocks the next change; each is left out and said at WARNING, as a hostile bucket state is.
 */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
class HostileSharedMapsTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @Test
    void aBanForeverOrOfAnotherTypeDeniesNothingAndTheBansGoOn(HazelcastTestCluster cluster) {
        String map = "hostile-bans-" + UUID.randomUUID();
        String forever = BucketKeys.of("r", "forever");
        String other = BucketKeys.of("r", "other");
        cluster.member(1).getMap(map + HazelcastBanSharing.SUFFIX).put(forever, Long.MAX_VALUE);
        cluster.member(1).getMap(map + HazelcastBanSharing.SUFFIX).put(other, "for good");
        HazelcastBucketStore store = new HazelcastBucketStore(cluster.member(0), map, true, TIMEOUT);
        Bans bans = HazelcastBanSharing.open(cluster.member(0), map, store);
        try {
            assertThat(bans.leftMicros(forever)).as("a ban that never ends, read at start").isZero();
            assertThat(bans.leftMicros(other)).as("a ban of another type, read at start").isZero();
            String later = BucketKeys.of("r", "later");
            String real = BucketKeys.of("r", "real");
            cluster.member(1).getMap(map + HazelcastBanSharing.SUFFIX).put(later, Long.MAX_VALUE - 1);
            long end = cluster.clock().nowMicros() + Duration.ofMinutes(5).toNanos() / 1_000;
            cluster.member(2).getMap(map + HazelcastBanSharing.SUFFIX).put(real, end);
            Await.until("a real ban copied after the hostile ones", Duration.ofSeconds(30), () -> bans.leftMicros(real) > 0);
            assertThat(bans.leftMicros(later)).as("a ban that never ends, from the listener").isZero();
            bans.reconcile(Map.of(forever, Long.MAX_VALUE, other, List.of(), real, end));
            assertThat(bans.leftMicros(forever)).isZero();
            assertThat(bans.leftMicros(real)).isPositive();
        } finally {
            bans.close();
            store.close();
        }
    }

    @Test
    void aRuleChangeThatIsNoneIsLeftOutAndTheNextChangeReplacesIt(HazelcastTestCluster cluster) {
        String map = "hostile-rules-" + UUID.randomUUID();
        cluster.member(1).getMap(map + "-rules").put("search", 42);
        cluster.member(1).getMap(map + "-rules").put("other", "changed-at=not a time\nattribute.burst=1\n");
        Settings settings = Settings.of(Map.of("tollgate.config.refresh", "off", "tollgate.rules.search.rate", "1/1h",
                "tollgate.rules.search.burst", "2", "tollgate.rules.other.rate", "1/1h", "tollgate.rules.other.burst", "2"));
        TollgateConfig config = ConfigReader.read(settings, List.of());
        BucketStore store = StoreStack.DEFAULT.over(new HazelcastBucketStore(cluster.member(0), map, true, TIMEOUT));
        LiveRules rules = new LiveRules(config, new RuleEditor(settings, List.of(), config), store,
                HazelcastStores.sharedRules(cluster.member(0), map + "-rules"), change -> { }, () -> "ops").start();
        try {
            assertThat(rules.current("search")).containsEntry("limits", "1/1h burst 2");
            assertThat(rules.current("other")).containsEntry("limits", "1/1h burst 2");
            assertThat(rules.change("search", Map.of("burst", "3"))).containsEntry("limits", "1/1h burst 3");
            assertThat(rules.change("other", Map.of("burst", "4"))).containsEntry("limits", "1/1h burst 4");
        } finally {
            rules.close();
            store.close();
        }
    }
}
