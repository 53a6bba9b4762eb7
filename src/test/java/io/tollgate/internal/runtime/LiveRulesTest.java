package io.tollgate.internal.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.Decision;
import io.tollgate.RateLimitRuleChanged;
import io.tollgate.internal.config.ConfigReader;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.config.LiveRule;
import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.config.RuleEditor;
import io.tollgate.internal.config.Settings;
import io.tollgate.internal.config.TollgateConfig;
import io.tollgate.internal.limiter.Limiter;
import io.tollgate.internal.store.BucketStore;
import io.tollgate.internal.store.InMemoryBucketStore;
import io.tollgate.internal.store.RecentDenials;
import io.tollgate.internal.store.StoreStack;
import io.tollgate.testing.CapturedLog;
import io.tollgate.testing.TestClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Rules changed at runtime, on the in-memory store with a fake clock: through the operator API and by reading the
 * configuration again, validated as at deployment, carried over by the documented rescaling, and the local state of
 * the old limits (cached denials, reserves) dropped.
 */
class LiveRulesTest {

    private final Map<String, String> properties = new ConcurrentHashMap<>();
    private final TestClock clock = new TestClock(1_000_000_000_000_000L);
    private final List<RateLimitRuleChanged> events = new ArrayList<>();
    private long nanos = 1;
    private TollgateConfig config;
    private BucketStore store;
    private Limiter limiter;
    private LiveRules rules;

    @BeforeEach
    void deploy() {
        properties.put("tollgate.config.refresh", "off");
        properties.put("tollgate.rules.search.rate", "10/1s");
        properties.put("tollgate.rules.search.burst", "10");
        properties.put("tollgate.rules.search.key", "header:x-api-key");
        Settings settings = settings();
        config = ConfigReader.read(settings, List.of());
        LongSupplier nanoTime = () -> nanos;
        store = new StoreStack(true, 1000).over(new InMemoryBucketStore(clock, 1000), nanoTime);
        limiter = new Limiter(store, Duration.ofSeconds(1));
        rules = new LiveRules(config, new RuleEditor(settings, List.of(), config), store, SharedRules.local(), events::add, () -> "ops@example.com").start();
    }

    /** @return the test's properties as they read at each look-up */
    private Settings settings() {
        return new Settings() {
            @Override
            public java.util.Optional<String> get(String name) {
                return java.util.Optional.ofNullable(properties.get(name));
            }

            @Override
            public Iterable<String> names() {
                return List.copyOf(properties.keySet());
            }
        };
    }

    @AfterEach
    void close() {
        rules.close();
        store.close();
    }

    /** Advances the store's clock and the member's monotonic one together. */
    private void advance(Duration by) {
        clock.advance(by);
        nanos += by.toNanos();
    }

    private RuleConfig search() {
        return config.rule("search");
    }

    private int granted(String key, int attempts) {
        int granted = 0;
        for (int i = 0; i < attempts; i++) {
            if (limiter.check(search(), key, 1).allowed()) {
                granted++;
            }
        }
        return granted;
    }

    @Test
    void aChangeSwapsTheLivePartWholeAndTheIdentityStays() {
        RuleConfig rule = search();
        LiveRule before = rule.live();
        Map<String, String> now = rules.change("search", Map.of("rate", "100/1s", "burst", "200", "mode", "shadow"));
        assertThat(now).containsEntry("limits", "100/1s burst 200").containsEntry("mode", "shadow")
                .containsEntry("on-store-failure", "local").containsEntry("overrides", "");
        assertThat(config.rule("search")).isSameAs(rule);
        assertThat(rule.live()).isNotSameAs(before);
        assertThat(before.values()).containsEntry("limits", "10/1s burst 10").containsEntry("mode", "enforce");
        assertThat(rule.key().toString()).isEqualTo("header:x-api-key");
        assertThat(rule.cost().maxCost()).isEqualTo(200); // a max-cost left to default follows the smallest burst
        assertThat(rules.changes("search")).containsOnlyKeys("rate", "burst", "mode");
        assertThat(events).singleElement().satisfies(event -> {
            assertThat(event.source()).isEqualTo(RateLimitRuleChanged.Source.API);
            assertThat(event.caller()).isEqualTo("ops@example.com");
            assertThat(event.changes()).containsEntry("limits", new RateLimitRuleChanged.Change("10/1s burst 10", "100/1s burst 200"))
                    .containsEntry("mode", new RateLimitRuleChanged.Change("enforce", "shadow")).hasSize(2);
        });
    }

    @Test
    void aBadChangeIsRefusedWholeWithTheDeploymentsMessagesAndChangesNothing() {
        assertThatThrownBy(() -> rules.change("search", Map.of("rate", "ten", "mode", "shadow", "burst", "0")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid Tollgate configuration (2 problems):\n"
                        + "  tollgate.rules.search.rate = 'ten': not a rate; use tokens per second (10, 0.5) or <tokens>/<period> (1000/1h, 5/100ms)\n"
                        + "  tollgate.rules.search.burst = '0': must be at least 1");
        assertThat(search().live().values()).containsEntry("limits", "10/1s burst 10").containsEntry("mode", "enforce");
        assertThat(rules.changes("search")).isEmpty();
        assertThat(events).isEmpty();
    }

    @Test
    void attributesThatAreNotLiveAreRefusedWithTheReason() {
        assertThatThrownBy(() -> rules.change("search", Map.of("key", "ip", "rate", "20")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid Tollgate configuration (1 problem):\n"
                        + "  tollgate.rules.search.key = 'ip': 'key' cannot change while the application runs (only rate, "
                        + "tokens-per-second, burst, limits, mode, on-store-failure, overrides, max-limit can); it takes effect at the next deployment");
        assertThatThrownBy(() -> rules.change("nope", Map.of("rate", "20")))
                .hasMessage("rule = 'nope': no such rule; configured rules are [search]");
        assertThat(search().live().values()).containsEntry("limits", "10/1s burst 10");
    }

    @Test
    void aBucketChargedUnderTheOldLimitsCarriesItsTokensOver() {
        assertThat(granted("k", 4)).isEqualTo(4); // 6 of 10 left
        rules.change("search", Map.of("burst", "20"));
        assertThat(granted("k", 10)).isEqualTo(6); // the 6 tokens carried over, not a full 20
        advance(Duration.ofSeconds(1));
        assertThat(granted("k", 30)).isEqualTo(10); // refills at 10/s, now up to 20
        advance(Duration.ofSeconds(3));
        assertThat(granted("k", 30)).isEqualTo(20);
    }

    @Test
    void cachedDenialsOfTheOldLimitsAreDropped() {
        rules.change("search", Map.of("rate", "1/1h", "burst", "2"));
        assertThat(granted("k", 3)).isEqualTo(2); // the third is denied, and remembered for an hour
        Decision cached = limiter.check(search(), "k", 1);
        assertThat(cached.allowed()).isFalse();
        assertThat(((RecentDenials) store).recentlyDenied("search:k", 1)).isTrue();
        rules.change("search", Map.of("rate", "100/1s", "burst", "100"));
        assertThat(((RecentDenials) store).recentlyDenied("search:k", 1)).isFalse(); // forgotten with the old limits
        advance(Duration.ofSeconds(1));
        assertThat(granted("k", 150)).isEqualTo(100); // the looser limit decides at once
    }

    @Test
    void overridesGiveAKeyItsOwnLimitsAndGo() {
        rules.override("search", "acme", "1000/1s");
        assertThat(rules.current("search")).containsEntry("overrides", "acme=1000/1s burst 1000");
        assertThat(granted("acme", 50)).isEqualTo(50);
        assertThat(granted("other", 50)).isEqualTo(10);
        rules.override("search", "a;b=c", "20/1s");
        assertThat(rules.current("search")).containsEntry("overrides", "acme=1000/1s burst 1000; a%3Bb%3Dc=20/1s burst 20");
        assertThat(granted("a;b=c", 30)).isEqualTo(20);
        rules.removeOverride("search", "acme");
        assertThat(rules.current("search")).containsEntry("overrides", "a%3Bb%3Dc=20/1s burst 20");
        assertThatThrownBy(() -> rules.removeOverride("search", "acme")).hasMessage("key = 'acme': rule 'search' has no override for it");
        assertThatThrownBy(() -> rules.override("search", "small", "1/1s burst 0"))
                .hasMessageEndingWith("tollgate.rules.search.overrides = 'a%3Bb%3Dc=20/1s burst 20; small=1/1s burst 0': key 'small': "
                        + "'1/1s burst 0': burst 0 must be at least 1");
        rules.revert("search");
        assertThat(rules.current("search")).containsEntry("overrides", "").containsEntry("limits", "10/1s burst 10");
        assertThat(rules.changes("search")).isEmpty();
    }

    /**
     * A denial writes nothing: without more, a bucket drained under the old limits would expire when they had refilled
     * it (1 s), and come back full under limits that refill it in 10 minutes.
     */
    @Test
    void aStricterLimitKeepsADrainedBucketUntilTheNewLimitsRefillIt() {
        assertThat(granted("k", 15)).isEqualTo(10);
        rules.change("search", Map.of("limits", "1/1m burst 10"));
        advance(Duration.ofSeconds(5));
        assertThat(granted("k", 10)).as("5 s at 1/min").isZero();
        advance(Duration.ofMinutes(1));
        assertThat(granted("k", 10)).isEqualTo(1);
        advance(Duration.ofMinutes(10));
        assertThat(granted("k", 20)).as("full again, 10 minutes on").isEqualTo(10);
    }

    @Test
    void aStricterOverrideKeepsItsKeysDrainedBucket() {
        rules.override("search", "acme", "100/1s");
        assertThat(granted("acme", 150)).isEqualTo(100);
        assertThat(granted("other", 15)).isEqualTo(10);
        rules.override("search", "acme", "1/1m burst 100");
        rules.change("search", Map.of("limits", "1/1h burst 10"));
        advance(Duration.ofSeconds(5));
        assertThat(granted("acme", 10)).as("5 s at 1/min").isZero();
        assertThat(granted("other", 10)).as("5 s at 1/h").isZero();
    }

    /** Keys are named by their hashes outside the API that sets them, as the admin resource and denial events name them. */
    @Test
    void anOverridesKeyIsNamedByItsHashInTheEventAndTheLog() {
        List<LogRecord> logged;
        try (CapturedLog log = CapturedLog.of(LiveRules.class)) {
            rules.override("search", "secret-api-key", "1000/1s");
            logged = log.records();
        }
        String shown = BucketKeys.hash("secret-api-key") + "=1000/1s burst 1000";
        assertThat(events).last().satisfies(event -> assertThat(event.changes())
                .containsExactly(Map.entry("overrides", new RateLimitRuleChanged.Change("", shown))));
        assertThat(logged).singleElement().satisfies(record -> assertThat(record.getMessage())
                .contains("overrides '' -> '" + shown + "'").doesNotContain("secret-api-key"));
        assertThat(rules.current("search")).as("what the API reads back, to edit").containsEntry("overrides", "secret-api-key=1000/1s burst 1000");
        assertThat(config.rule("search").live().toString()).contains(shown).doesNotContain("secret-api-key");
    }

    @Test
    void theConfigurationReadAgainAppliesItsLiveChangesAndTheApiTakesPrecedence() {
        properties.put("tollgate.rules.search.rate", "20/1s");
        properties.put("tollgate.rules.search.overrides", "acme=50/1s");
        rules.refresh();
        assertThat(rules.current("search")).containsEntry("limits", "20/1s burst 10").containsEntry("overrides", "acme=50/1s burst 50");
        assertThat(events).last().satisfies(event -> {
            assertThat(event.source()).isEqualTo(RateLimitRuleChanged.Source.CONFIGURATION);
            assertThat(event.caller()).as("nobody called the API").isNull();
        });
        rules.change("search", Map.of("limits", "50/1s burst 50"));
        properties.put("tollgate.rules.search.rate", "30/1s");
        rules.refresh();
        assertThat(rules.current("search")).containsEntry("limits", "50/1s burst 50");
        rules.revert("search");
        assertThat(rules.current("search")).containsEntry("limits", "30/1s burst 10");
        int before = events.size();
        properties.put("tollgate.rules.search.key", "ip");
        properties.put("tollgate.rules.search.rate", "40/1s");
        rules.refresh(); // a key changed in the configuration waits for the next deployment; the rate applies
        assertThat(rules.current("search")).containsEntry("limits", "40/1s burst 10");
        assertThat(search().key().toString()).isEqualTo("header:x-api-key");
        assertThat(events).hasSize(before + 1);
    }

    /**
     * A member that missed the events of a change and of its revert (the other side of a split made them) catches up
     * from what the store holds: the change applies, then the revert, each told once, and a catch-up that finds
     * nothing new tells nobody.
     */
    @Test
    void aCatchUpAppliesTheChangesWhoseEventsWereMissedAndOnlyThose() {
        rules.close();
        Map<String, RuleOverlay> stored = new ConcurrentHashMap<>();
        SharedRules missesEvents = new SharedRules() {
            @Override
            public Map<String, RuleOverlay> start(java.util.function.BiConsumer<String, RuleOverlay> listener) {
                return Map.of(); // never tells the listener anything
            }

            @Override
            public RuleOverlay update(String rule, java.util.function.UnaryOperator<RuleOverlay> change) {
                return stored.compute(rule, (name, overlay) -> change.apply(overlay));
            }

            @Override
            public String member() {
                return "member 1";
            }

            @Override
            public Map<String, RuleOverlay> snapshot() {
                return Map.copyOf(stored);
            }
        };
        rules = new LiveRules(config, new RuleEditor(Settings.of(properties), List.of(), config),
                store, missesEvents, events::add, () -> null).start();
        stored.put("search", new RuleOverlay(Map.of("burst", "3"), "member 2", "ops", java.time.Instant.now()));

        rules.catchUp(false);
        io.tollgate.testing.Await.until("the change applied", Duration.ofSeconds(10),
                () -> "10/1s burst 3".equals(search().live().values().get("limits")));
        rules.catchUp(false);
        stored.remove("search");
        rules.catchUp(true);
        io.tollgate.testing.Await.until("the revert applied", Duration.ofSeconds(10),
                () -> "10/1s burst 10".equals(search().live().values().get("limits")));
        rules.catchUp(false);
        rules.catchUp(false);
        io.tollgate.testing.Await.until("the catch-ups done", Duration.ofSeconds(10), () -> events.size() >= 2);
        assertThat(events).extracting(RateLimitRuleChanged::changes).containsExactly(
                Map.of("limits", new RateLimitRuleChanged.Change("10/1s burst 10", "10/1s burst 3")),
                Map.of("limits", new RateLimitRuleChanged.Change("10/1s burst 3", "10/1s burst 10")));
    }

    /**
     * The configuration is edited for the next release: the rule's key changes, which only a deployment applies. Live
     * changes go on, from the API and from the configuration, and the rule keeps the key it was deployed with.
     */
    @Test
    void aPendingChangeOfAFixedAttributeFreezesNoLiveChange() {
        properties.put("tollgate.rules.search.key", "ip");
        properties.put("tollgate.rules.search.match", "method=POST");
        assertThat(rules.change("search", Map.of("burst", "3"))).containsEntry("limits", "10/1s burst 3")
                .containsEntry("mode", "enforce");
        properties.put("tollgate.rules.search.mode", "shadow");
        rules.refresh();
        assertThat(search().live().values()).containsEntry("mode", "shadow").containsEntry("limits", "10/1s burst 3");
        assertThat(search().key().toString()).as("as deployed").isEqualTo("header:x-api-key");
        properties.remove("tollgate.rules.search.match");
        properties.put("tollgate.rules.search.key", "header:x-api-key");
        RuleEditor editor = new RuleEditor(settings(), List.of(), config);
        assertThat(editor.pending("search")).isEmpty();
        properties.put("tollgate.rules.search.key", "ip");
        assertThat(editor.pending("search")).containsExactly(
                "tollgate.rules.search.key = 'ip': 'key' cannot change while the application runs (only rate, tokens-per-second, "
                        + "burst, limits, mode, on-store-failure, overrides, max-limit can); it takes effect at the next "
                        + "deployment; until then the rule keeps 'header:x-api-key', as deployed, and its live attributes go on "
                        + "changing");
    }
}
