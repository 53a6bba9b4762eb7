package io.tollgate.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.Decision;
import io.tollgate.internal.config.HeaderStyle;
import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.config.TollgateConfig;
import io.tollgate.internal.limiter.Decisions;
import io.tollgate.internal.limiter.RuleCheck;
import io.tollgate.testing.TestRules;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The rate-limit headers of allowed and denied responses, IETF draft and legacy styles. */
class RateLimitHeadersTest {

    private static final long SECOND = 1_000_000L;

    /** Rules read from properties, the way a deployment gets them. */
    private static TollgateConfig config(String... namesAndValues) {
        Map<String, String> properties = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            properties.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return TestRules.read(properties);
    }

    private static final TollgateConfig RULES = config(
            "tollgate.rules.search.rate", "10/s",
            "tollgate.rules.search.burst", "20",
            "tollgate.rules.reports.rate", "1000/1h",
            "tollgate.rules.multi.limits", "10/s burst 20, 1000/1h",
            "tollgate.rules.quick.rate", "5/100ms",
            "tollgate.rules.odd.rate", "3",
            "tollgate.rules.odd.burst", "5",
            "tollgate.rules.slow.rate", "0.5",
            "tollgate.rules.trial.rate", "10",
            "tollgate.rules.trial.mode", "shadow");

    private static RuleConfig rule(String name) {
        return RULES.rule(name);
    }

    private static RuleCheck check(RuleConfig rule, String key, Decision decision) {
        return RuleCheck.of(rule, key, decision);
    }

    private static RuleCheck allowed(String rule, long remaining, long limit, int limitIndex, long resetAfterMicros) {
        return check(rule(rule), "client", new Decision(rule, true, 1, remaining, limit, limitIndex, resetAfterMicros, 0, false, false));
    }

    private static Map<String, String> headers(HeaderStyle style, RuleCheck... checks) {
        Map<String, String> written = new LinkedHashMap<>();
        RateLimitHeaders.write(style, List.of(checks), (name, value) -> {
            assertThat(written).as("header %s written once", name).doesNotContainKey(name);
            written.put(name, value);
        });
        return written;
    }

    @Test
    void ietfHeadersDescribeTheRulePolicyAndItsState() {
        // 10/s burst 20, 19 left: one token short of full, the next one in 100 ms
        assertThat(headers(HeaderStyle.IETF, allowed("search", 19, 20, 0, 100_000))).containsExactly(
                Map.entry("RateLimit-Policy", "\"search\";q=10;w=1"),
                Map.entry("RateLimit", "\"search\";r=19;t=1"));
    }

    @Test
    void ietfHeadersListEveryRuleTheRequestWentThrough() {
        // 1000/1h with 997 left: full in 10.8 s, the next token in 3.6 s
        assertThat(headers(HeaderStyle.IETF,
                allowed("search", 19, 20, 0, 100_000),
                allowed("reports", 997, 1000, 0, 10_800_000))).containsExactly(
                Map.entry("RateLimit-Policy", "\"search\";q=10;w=1, \"reports\";q=1000;w=3600"),
                Map.entry("RateLimit", "\"search\";r=19;t=1, \"reports\";r=997;t=4"));
    }

    @Test
    void ietfHeadersNameTheSecondAndLaterLimitsOfARuleWithTheirIndex() {
        assertThat(headers(HeaderStyle.IETF, allowed("multi", 15, 20, 0, 500_000))).containsExactly(
                Map.entry("RateLimit-Policy", "\"multi\";q=10;w=1, \"multi.1\";q=1000;w=3600"),
                Map.entry("RateLimit", "\"multi\";r=15;t=1"));
        RuleCheck hourly = check(rule("multi"), "client", new Decision("multi", false, 1, 0, 1000, 1, 3_600 * SECOND, 3_600_000, false, false));
        assertThat(headers(HeaderStyle.IETF, hourly)).containsExactly(
                Map.entry("RateLimit-Policy", "\"multi\";q=10;w=1, \"multi.1\";q=1000;w=3600"),
                Map.entry("RateLimit", "\"multi.1\";r=0;t=4"));
    }

    @Test
    void theIetfPolicyIsTheRateInWholeTokensPerWholeSecondsAndTIsOmittedWhenFull() {
        assertThat(headers(HeaderStyle.IETF, allowed("quick", 4, 5, 0, 20_000)))
                .containsEntry("RateLimit-Policy", "\"quick\";q=50;w=1") // 5 per 100 ms
                .containsEntry("RateLimit", "\"quick\";r=4;t=1");
        assertThat(headers(HeaderStyle.IETF, allowed("odd", 5, 5, 0, 0)))
                .containsEntry("RateLimit-Policy", "\"odd\";q=3;w=1")
                .containsEntry("RateLimit", "\"odd\";r=5"); // full: no more is coming
        assertThat(headers(HeaderStyle.IETF, allowed("slow", 0, 1, 0, 2 * SECOND)))
                .containsEntry("RateLimit-Policy", "\"slow\";q=1;w=2") // 0.5 per second
                .containsEntry("RateLimit", "\"slow\";r=0;t=2");
    }

    /**
     * The draft's meaning of {@code t}, checked on the real bucket: within {@code t} seconds the client gets no
     * more than {@code r} (one second less and no token has come), at {@code t} one more is there; and a 429's
     * exact wait is never shorter than {@code t}.
     */
    @Test
    void tIsWhenTheNextTokenComesAndNeverAfterTheWaitOfADenial() {
        java.util.Random random = new java.util.Random(20261123);
        for (String name : List.of("search", "reports", "multi", "quick", "odd", "slow")) {
            RuleConfig rule = rule(name);
            io.tollgate.internal.core.TokenBucket bucket = rule.bucket();
            for (int round = 0; round < 300; round++) {
                long now = 1_000_000_000_000L;
                long[] state = null;
                int taken = random.nextInt((int) Math.min(bucket.maxCost() + 3, 40));
                for (int i = 0; i < taken; i++) {
                    now += random.nextInt(200_000);
                    long[] next = bucket.tryConsume(state, 1, now).newState();
                    state = next != null ? next : state;
                }
                io.tollgate.internal.core.Outcome outcome = bucket.tryConsume(state, 1, now);
                Decision decision = Decisions.of(name, bucket, 1, outcome);
                io.tollgate.internal.core.Limit limit = rule.limits().get(decision.limitIndex());
                long t = RateLimitHeaders.nextTokenSeconds(limit, decision);
                long[] after = outcome.newState() != null ? outcome.newState() : state;
                if (decision.remaining() >= limit.burst()) {
                    assertThat(t).isZero();
                    continue;
                }
                assertThat(t).as("%s: a token is coming", name).isPositive();
                assertThat(remaining(bucket, after, now + t * SECOND, decision.limitIndex()))
                        .as("%s after t=%d s", name, t).isGreaterThan(decision.remaining());
                assertThat(remaining(bucket, after, now + (t - 1) * SECOND, decision.limitIndex()))
                        .as("%s after t-1 s", name).isEqualTo(decision.remaining());
                if (!decision.allowed()) {
                    assertThat(decision.retryAfterSeconds()).as("%s: Retry-After >= t", name).isGreaterThanOrEqualTo(t);
                }
            }
        }
    }

    /** Whole tokens in limit {@code index} of the stored state at {@code at}, read by a bucket of that limit alone. */
    private static long remaining(io.tollgate.internal.core.TokenBucket bucket, long[] state, long at, int index) {
        io.tollgate.internal.core.TokenBucket alone = io.tollgate.internal.core.TokenBucket.fromSpec(
                java.util.Arrays.copyOfRange(bucket.spec(), 3 * index, 3 * index + 3));
        long[] slice = state == null ? null : new long[] {state[0], state[1 + 2 * index], state[2 + 2 * index]};
        return alone.tryConsume(slice, 0, at).remaining();
    }

    @Test
    void shadowRulesAreNotAdvertised() {
        RuleCheck shadow = check(rule("trial"), "client",
                Decisions.shadow(new Decision("trial", false, 1, 0, 10, 0, SECOND, 100_000, false, false)));
        for (HeaderStyle style : HeaderStyle.values()) {
            assertThat(headers(style, shadow)).as(style.name()).isEmpty();
        }
        assertThat(headers(HeaderStyle.IETF, shadow, allowed("search", 19, 20, 0, 100_000))).containsExactly(
                Map.entry("RateLimit-Policy", "\"search\";q=10;w=1"),
                Map.entry("RateLimit", "\"search\";r=19;t=1"));
        assertThat(headers(HeaderStyle.LEGACY, allowed("search", 19, 20, 0, 100_000), shadow)).containsExactly(
                Map.entry("RateLimit-Limit", "20"),
                Map.entry("RateLimit-Remaining", "19"),
                Map.entry("RateLimit-Reset", "1"));
    }

    @Test
    void decisionsMadeWithoutTheStoreAreNotAdvertised() {
        RuleCheck failedOpen = check(rule("search"), "client", Decisions.storeUnavailable("search", true, 1, 20, SECOND));
        RuleCheck failedClosed = check(rule("reports"), "client", Decisions.storeUnavailable("reports", false, 1, 1000, SECOND));
        for (HeaderStyle style : HeaderStyle.values()) {
            assertThat(headers(style, failedOpen)).as(style.name()).isEmpty();
            assertThat(headers(style, failedOpen, failedClosed)).as(style.name()).isEmpty();
        }
        assertThat(headers(HeaderStyle.X_RATELIMIT, failedOpen, allowed("quick", 3, 5, 0, 40_000))).containsExactly(
                Map.entry("X-RateLimit-Limit", "5"),
                Map.entry("X-RateLimit-Remaining", "3"),
                Map.entry("X-RateLimit-Reset", "1"));
    }

    @Test
    void legacyHeadersDescribeTheRuleWithTheFewestTokensLeft() {
        assertThat(headers(HeaderStyle.LEGACY,
                allowed("reports", 997, 1000, 0, 10_800_000),
                allowed("search", 4, 20, 0, 1_600_000),
                allowed("quick", 5, 5, 0, 0))).containsExactly(
                Map.entry("RateLimit-Limit", "20"),
                Map.entry("RateLimit-Remaining", "4"),
                Map.entry("RateLimit-Reset", "2"));
    }

    @Test
    void legacyHeadersDescribeTheDenyingRule() {
        RuleCheck deniedSearch = check(rule("search"), "client", new Decision("search", false, 8, 5, 20, 0, 1_500_000, 300_000, false, false));
        assertThat(headers(HeaderStyle.LEGACY, allowed("quick", 2, 5, 0, 60_000), deniedSearch)).containsExactly(
                Map.entry("RateLimit-Limit", "20"),
                Map.entry("RateLimit-Remaining", "5"),
                Map.entry("RateLimit-Reset", "2"));
    }

    @Test
    void xRateLimitHeadersAreTheLegacyOnesWithAnXPrefix() {
        assertThat(headers(HeaderStyle.X_RATELIMIT, allowed("search", 19, 20, 0, 100_000))).containsExactly(
                Map.entry("X-RateLimit-Limit", "20"),
                Map.entry("X-RateLimit-Remaining", "19"),
                Map.entry("X-RateLimit-Reset", "1"));
    }

    @Test
    void styleNoneWritesNothing() {
        assertThat(headers(HeaderStyle.NONE, allowed("search", 19, 20, 0, 100_000))).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(HeaderStyle.class)
    void noChecksNoHeaders(HeaderStyle style) {
        assertThat(headers(style)).isEmpty();
    }
}
