package io.tollgate.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.BucketStatus;
import io.tollgate.Decision;
import io.tollgate.RateLimitAdmin;
import io.tollgate.RateLimitRules;
import io.tollgate.RateLimiter;
import io.tollgate.RuleDescription;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.testing.TestApp;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The injectable {@link RateLimitAdmin} with the in-memory store: inspect, reset, the rules as configured. */
class RateLimitAdminTest {

    @Test
    void inspectsResetsAndListsTheRulesAsConfigured() throws Exception {
        try (TestApp app = TestApp.builder()
                .property("tollgate.store", "memory")
                .property("tollgate.rules.search.rate", "1/1h")
                .property("tollgate.rules.search.burst", "3")
                .property("tollgate.rules.llm.limits", "10/s burst 20, 1000/1h")
                .property("tollgate.rules.llm.key", "header:X-Api-Key, path")
                .property("tollgate.rules.llm.cost", "header:X-Weight")
                .property("tollgate.rules.llm.match", "jwt:plan=free")
                .property("tollgate.rules.llm.paths", "/llm/**")
                .property("tollgate.rules.llm.mode", "shadow")
                .property("tollgate.rules.llm.on-store-failure", "deny")
                .start()) {
            RateLimitAdmin admin = app.bean(RateLimitAdmin.class);
            RateLimiter limiter = app.bean(RateLimiter.class);

            assertThat(admin.rules()).containsExactly(
                    new RuleDescription("llm", List.of(new RuleDescription.Limit(10, Duration.ofSeconds(1), 20),
                            new RuleDescription.Limit(1000, Duration.ofHours(1), 1000)),
                            "header:X-Api-Key, path", "header:x-weight", "jwt:plan=free", "", "shared", List.of("/llm/**"), "shadow",
                            "deny", Map.of(), "", "", ""),
                    new RuleDescription("search", List.of(new RuleDescription.Limit(1, Duration.ofHours(1), 3)),
                            "ip", "1", "", "", "shared", List.of(), "enforce", "local", Map.of(), "", "", ""));

            String key = "203.0.113.7";
            limiter.tryAcquire("search", key, 2);
            BucketStatus status = admin.inspect("search", key);
            assertThat(status).isEqualTo(new BucketStatus("search", BucketKeys.hash(key),
                    List.of(status.limits().get(0)), true, null));
            assertThat(status.limits().get(0).remaining()).isEqualTo(1);
            assertThat(status.limits().get(0).burst()).isEqualTo(3);
            assertThat(status.limits().get(0).untilFull()).isGreaterThan(Duration.ofMinutes(119)).isLessThanOrEqualTo(Duration.ofHours(2));
            assertThat(admin.inspect("search", key).limits().get(0).remaining()).isEqualTo(1); // reading again charged nothing
            assertThat(limiter.tryAcquire("search", key, 1).remaining()).isZero();
            assertThat(limiter.tryAcquire("search", key, 1).allowed()).isFalse();

            assertThat(admin.reset("search", key).full()).isTrue();
            assertThat(limiter.tryAcquire("search", key, 3).allowed()).isTrue();
            BucketStatus neverSeen = admin.inspect("search", "never-seen");
            assertThat(neverSeen.full()).isTrue();
            assertThat(neverSeen.found()).as("a key without a bucket says so").isFalse();
            assertThat(admin.reset("search", "never-seen").found()).isFalse();
            assertThat(admin.inspect("search", key).found()).isTrue();

            assertThatThrownBy(() -> admin.inspect("nope", key)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("rule = 'nope': no such rule; configured rules are [llm, search]");
            assertThatThrownBy(() -> admin.reset("search", null)).isInstanceOf(IllegalArgumentException.class);
            assertThat(admin.inspect("search", key).limits().get(0).remaining()).isZero(); // the refused reset changed nothing
        }
    }

    /** A key the rule gives limits of its own is shown by them, and a rule changed at runtime is listed as it runs. */
    @Test
    void showsAKeysOwnLimitsAndTheRulesAsTheyRunNow() throws Exception {
        try (TestApp app = TestApp.builder()
                .property("tollgate.store", "memory")
                .property("tollgate.rules.api.rate", "1/1h")
                .property("tollgate.rules.api.burst", "3")
                .property("tollgate.rules.api.overrides", "acme=1/1h burst 50")
                .start()) {
            RateLimitAdmin admin = app.bean(RateLimitAdmin.class);
            app.bean(RateLimiter.class).tryAcquire("api", "acme", 10);
            assertThat(admin.inspect("api", "acme").limits()).singleElement().satisfies(limit -> {
                assertThat(limit.burst()).isEqualTo(50);
                assertThat(limit.remaining()).isEqualTo(40);
            });
            assertThat(admin.inspect("api", "other").limits()).singleElement()
                    .satisfies(limit -> assertThat(limit.burst()).isEqualTo(3));

            assertThat(admin.rules()).singleElement().satisfies(rule ->
                    assertThat(rule.overrides()).as("keys by their hash").containsExactly(Map.entry(BucketKeys.hash("acme"), "1/1h burst 50")));
            app.bean(RateLimitRules.class).change("api", Map.of("burst", "7"));
            assertThat(admin.rules()).singleElement().satisfies(rule ->
                    assertThat(rule.limits()).containsExactly(new RuleDescription.Limit(1, Duration.ofHours(1), 7)));
        }
    }

    /** A banned key shows its ban when inspected and in the rule's list; lifting it ends the ban, not the empty bucket. */
    @Test
    void showsAndLiftsBans() throws Exception {
        try (TestApp app = TestApp.builder()
                .property("tollgate.store", "memory")
                .property("tollgate.rules.logins.rate", "1/1h")
                .property("tollgate.rules.logins.burst", "1")
                .property("tollgate.rules.logins.ban-after", "2/1h")
                .property("tollgate.rules.logins.ban-for", "1h")
                .start()) {
            RateLimitAdmin admin = app.bean(RateLimitAdmin.class);
            RateLimiter limiter = app.bean(RateLimiter.class);
            String key = "198.51.100.9";
            assertThat(limiter.tryAcquire("logins", key).allowed()).isTrue();
            assertThat(limiter.tryAcquire("logins", key).banned()).isFalse(); // the first denial
            assertThat(admin.inspect("logins", key).banned()).isFalse();
            assertThat(limiter.tryAcquire("logins", key).allowed()).isFalse(); // the second starts the ban

            BucketStatus banned = admin.inspect("logins", key);
            assertThat(banned.banned()).isTrue();
            assertThat(Duration.between(java.time.Instant.now(), banned.bannedUntil()))
                    .isGreaterThan(Duration.ofMinutes(59)).isLessThanOrEqualTo(Duration.ofHours(1));
            assertThat(admin.bans("logins")).singleElement().satisfies(ban -> {
                assertThat(ban.rule()).isEqualTo("logins");
                assertThat(ban.keyHash()).isEqualTo(BucketKeys.hash(key));
                assertThat(ban.until()).isEqualTo(banned.bannedUntil());
            });
            assertThat(limiter.tryAcquire("logins", key).banned()).isTrue();

            assertThat(admin.liftBan("logins", key)).isTrue();
            assertThat(admin.bans("logins")).isEmpty();
            assertThat(admin.inspect("logins", key).banned()).isFalse();
            Decision after = limiter.tryAcquire("logins", key);
            assertThat(after.allowed()).as("still an empty bucket").isFalse();
            assertThat(after.banned()).isFalse();
            assertThat(admin.liftBan("logins", key)).as("no ban left to lift").isFalse();
            admin.reset("logins", key);
            assertThat(limiter.tryAcquire("logins", key).allowed()).isTrue();

            assertThatThrownBy(() -> admin.bans("nope")).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> admin.liftBan("logins", null)).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
