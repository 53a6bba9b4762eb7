package io.tollgate.internal.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.RateLimitRuleChanged;
import io.tollgate.internal.config.ConfigReader;
import io.tollgate.internal.config.RuleEditor;
import io.tollgate.internal.config.Settings;
import io.tollgate.internal.config.TollgateConfig;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.limiter.Limiter;
import io.tollgate.internal.runtime.LiveRules;
import io.tollgate.internal.store.BucketStore;
import io.tollgate.internal.store.StoreStack;
import io.tollgate.testing.Await;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.SharedCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Changes made through the operator API on one member of a real Hazelcast cluster apply on the others, a member
 * that starts after a change comes up with it, and a revert goes everywhere.
 */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
class SharedRuleChangesTest {


    private final String map = "live-" + UUID.randomUUID();
    private final List<AutoCloseable> opened = new ArrayList<>();

    /** One application on one member: its configuration, store, limiter and live rules. */
    private record Member(TollgateConfig config, Limiter limiter, LiveRules rules, List<RateLimitRuleChanged> events) {

        int granted(String key, int attempts) {
            int granted = 0;
            for (int i = 0; i < attempts; i++) {
                if (limiter.check(config.rule("search"), key, 1).allowed()) {
                    granted++;
                }
            }
            return granted;
        }
    }

    private Member deploy(HazelcastTestCluster cluster, int index) {
        Settings settings = Settings.of(Map.of("tollgate.config.refresh", "off", "tollgate.rules.search.rate", "1/1h",
                "tollgate.rules.search.burst", "2"));
        TollgateConfig config = ConfigReader.read(settings, List.of());
        HazelcastBucketStore buckets = new HazelcastBucketStore(cluster.member(index), map, true);
        BucketStore store = StoreStack.DEFAULT.over(buckets);
        List<RateLimitRuleChanged> events = new CopyOnWriteArrayList<>();
        LiveRules rules = new LiveRules(config, new RuleEditor(settings, List.of(), config), store,
                HazelcastStores.sharedRules(cluster.member(index), map + "-rules"), events::add, () -> "operator-" + index).start();
        opened.add(rules);
        opened.add(store);
        return new Member(config, new Limiter(store, Duration.ofSeconds(10)), rules, events);
    }

    @Test
    void aChangeOnOneMemberAppliesOnEveryMemberAndOnOneThatStartsLater(HazelcastTestCluster cluster) throws Exception {
        try {
            Member first = deploy(cluster, 0);
            Member second = deploy(cluster, 1);
            assertThat(second.granted("client", 10)).isEqualTo(2);

            first.rules().change("search", Map.of("burst", "6"));
            first.rules().override("search", "acme", "100/1s");
            Await.until("the change on the second member", Duration.ofSeconds(30),
                    () -> second.rules().current("search").get("overrides").equals("acme=100/1s burst 100"));
            assertThat(second.rules().current("search")).containsEntry("limits", "1/1h burst 6");
            assertThat(second.granted("client", 10)).isZero(); // its 0 tokens carried over: a larger burst fills by the rate only
            assertThat(second.granted("acme", 100)).isEqualTo(100);
            assertThat(second.events()).last().satisfies(event -> {
                assertThat(event.source()).isEqualTo(RateLimitRuleChanged.Source.API);
                assertThat(event.origin()).startsWith("member ").isNotEqualTo(event.member());
                assertThat(event.caller()).as("who made it, on the first member").isEqualTo("operator-0");
                assertThat(event.changes()).containsEntry("overrides",
                        new RateLimitRuleChanged.Change("", BucketKeys.hash("acme") + "=100/1s burst 100"));
            });

            Member late = deploy(cluster, 2);
            assertThat(late.rules().current("search")).containsEntry("limits", "1/1h burst 6")
                    .containsEntry("overrides", "acme=100/1s burst 100");
            assertThat(late.rules().changes("search")).containsOnlyKeys("burst", "overrides");

            second.rules().revert("search");
            Await.until("the revert on the first member", Duration.ofSeconds(30), () -> first.rules().current("search").get("limits").equals("1/1h burst 2"));
            Await.until("the revert on the late member", Duration.ofSeconds(30), () -> late.rules().current("search").get("overrides").isEmpty());
            assertThat(first.rules().changes("search")).isEmpty();
        } finally {
            for (int i = opened.size() - 1; i >= 0; i--) {
                opened.get(i).close();
            }
        }
    }
}
