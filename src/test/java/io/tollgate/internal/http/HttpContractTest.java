package io.tollgate.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.tollgate.Decision;
import io.tollgate.internal.config.HeaderStyle;
import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.config.TollgateConfig;
import io.tollgate.internal.limiter.Decisions;
import io.tollgate.internal.limiter.RuleCheck;
import io.tollgate.internal.request.CostSpec;
import io.tollgate.internal.request.IncomingRequest;
import io.tollgate.internal.request.InvalidCostException;
import io.tollgate.internal.request.RequestView;
import io.tollgate.internal.request.TrustedProxies;
import io.tollgate.testing.TestRules;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.StringReader;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The HTTP contract: Retry-After with per-client jitter, rate-limit headers and RFC 9457 problem bodies. */
class HttpContractTest {

    private static final long SECOND = 1_000_000L;

    // ---------------------------------------------------------------- helpers

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

    private static Decision denied(long retryAfterMicros) {
        return new Decision("search", false, 1, 0, 20, 0, 2 * SECOND, retryAfterMicros, false, false);
    }

    private static JsonObject json(String body) {
        try (JsonReader reader = Json.createReader(new StringReader(body))) {
            return reader.readObject();
        }
    }

    // ---------------------------------------------------------------- Retry-After

    @Test
    void withoutJitterRetryAfterIsTheExactWaitRoundedUpAndAtLeastOneSecond() {
        assertThat(RetryAfter.seconds(denied(SECOND), "client", 0)).isEqualTo(1);
        assertThat(RetryAfter.seconds(denied(SECOND + 1), "client", 0)).isEqualTo(2);
        assertThat(RetryAfter.seconds(denied(2_500_000), "client", 0)).isEqualTo(3);
        assertThat(RetryAfter.seconds(denied(3_600 * SECOND), "client", 0)).isEqualTo(3_600);
        assertThat(RetryAfter.seconds(denied(1), "client", 0)).isEqualTo(1);
        assertThat(RetryAfter.seconds(denied(0), "client", 0)).isEqualTo(1);
    }

    @Test
    void withJitterRetryAfterIsNeverBelowTheExactWaitNorAboveOneAndAHalfTimesIt() {
        long[] waits = {1, 999_999, SECOND, SECOND + 1, 2_500_000, 10 * SECOND, 3_600 * SECOND + 123_457};
        for (long wait : waits) {
            long exact = (wait + SECOND - 1) / SECOND;
            long most = Math.max(1, (wait * 3 + 2 * SECOND - 1) / (2 * SECOND)); // ceil(wait x 1.5), in seconds
            for (int client = 0; client < 2_000; client++) {
                long seconds = RetryAfter.seconds(denied(wait), "client-" + client, 0.5);
                assertThat(seconds).as("wait %d µs, client %d", wait, client).isBetween(exact, most);
            }
        }
    }

    @Test
    void aDenialWithoutTheStoreSuggestsItsFixedWaitWithoutJitter() {
        for (int client = 0; client < 200; client++) {
            assertThat(RetryAfter.seconds(Decisions.storeUnavailable("search", false, 1, 20, SECOND), "client-" + client, 0.5))
                    .isEqualTo(1);
        }
    }

    @Test
    void theJitterOfAClientIsTheSameEveryTime() {
        for (int client = 0; client < 100; client++) {
            String key = "198.51.100." + client;
            long first = RetryAfter.seconds(denied(10 * SECOND), key, 0.5);
            for (int again = 0; again < 3; again++) {
                assertThat(RetryAfter.seconds(denied(10 * SECOND), key, 0.5)).isEqualTo(first);
            }
            assertThat(RetryAfter.unit("search", key)).isEqualTo(RetryAfter.unit("search", key));
        }
    }

    @Test
    void aLargerJitterNeverShortensTheWaitOfAClient() {
        for (int client = 0; client < 1_000; client++) {
            String key = "client-" + client;
            long none = RetryAfter.seconds(denied(10 * SECOND), key, 0);
            long half = RetryAfter.seconds(denied(10 * SECOND), key, 0.5);
            long full = RetryAfter.seconds(denied(10 * SECOND), key, 1);
            assertThat(none).isEqualTo(10);
            assertThat(half).isBetween(none, 15L);
            assertThat(full).isBetween(half, 20L);
        }
    }

    @Test
    void clientsAreSpreadEvenlyOverTheJitter() {
        // a 10 s wait with up to 50% jitter: 11..15 s; 10 s only for a fraction of exactly 0
        Map<Long, Integer> histogram = new TreeMap<>();
        for (int client = 0; client < 10_000; client++) {
            histogram.merge(RetryAfter.seconds(denied(10 * SECOND), "198.51." + client / 256 + "." + client % 256, 0.5), 1,
                    Integer::sum);
        }
        assertThat(histogram.keySet()).containsExactly(11L, 12L, 13L, 14L, 15L);
        assertThat(histogram.values()).allSatisfy(count -> assertThat(count).isBetween(1_800, 2_200));
    }

    @Test
    void theJitterFractionIsInZeroToOneAndDependsOnTheRuleToo() {
        int differs = 0;
        for (int client = 0; client < 1_000; client++) {
            double search = RetryAfter.unit("search", "client-" + client);
            double reports = RetryAfter.unit("reports", "client-" + client);
            assertThat(search).isGreaterThanOrEqualTo(0).isLessThan(1);
            if (search != reports) {
                differs++;
            }
        }
        assertThat(differs).isEqualTo(1_000);
        assertThat(RetryAfter.unit("search", null)).isGreaterThanOrEqualTo(0).isLessThan(1);
    }

    // ---------------------------------------------------------------- rate-limit headers

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

    // ---------------------------------------------------------------- problem bodies

    @Test
    void aDenialIsAProblemNamingTheRuleAndTheWait() {
        String body = Problems.tooManyRequests(new Decision("search", false, 3, 1, 20, 0, 1_900_000, 200_000, false, false), 1);
        JsonObject problem = json(body);
        assertThat(problem.keySet()).containsExactly("type", "title", "status", "detail", "violated-policies", "rule", "limit",
                "remaining", "retryAfter");
        assertThat(problem.getString("type")).isEqualTo("https://iana.org/assignments/http-problem-types#quota-exceeded")
                .isEqualTo(Problems.QUOTA_EXCEEDED);
        assertThat(problem.getString("title")).isEqualTo("Quota Exceeded");
        assertThat(problem.getJsonArray("violated-policies").getValuesAs(jakarta.json.JsonString::getString))
                .containsExactly("search");
        assertThat(problem.getInt("status")).isEqualTo(429);
        assertThat(problem.getString("detail"))
                .isEqualTo("Rate limit rule 'search' allows 20 at once; 1 left, 3 asked for. Retry after 1 s.");
        assertThat(problem.getString("rule")).isEqualTo("search");
        assertThat(problem.getJsonNumber("limit").longValueExact()).isEqualTo(20);
        assertThat(problem.getJsonNumber("remaining").longValueExact()).isEqualTo(1);
        assertThat(problem.getJsonNumber("retryAfter").longValueExact()).isEqualTo(1);
    }

    @Test
    void aDenialWithoutTheStoreSaysSo() {
        JsonObject problem = json(Problems.tooManyRequests(Decisions.storeUnavailable("search", false, 1, 20, SECOND), 2));
        assertThat(problem.getString("type")).isEqualTo("https://iana.org/assignments/http-problem-types#temporary-reduced-capacity");
        assertThat(problem.getString("title")).isEqualTo("Temporary Reduced Capacity");
        assertThat(problem.getJsonArray("violated-policies").getValuesAs(jakarta.json.JsonString::getString))
                .containsExactly("search");
        assertThat(problem.getInt("status")).isEqualTo(429);
        assertThat(problem.getString("detail"))
                .isEqualTo("Rate limit rule 'search' could not be checked and denies requests until it can.");
        assertThat(problem.getString("rule")).isEqualTo("search");
        assertThat(problem.getJsonNumber("limit").longValueExact()).isEqualTo(20);
        assertThat(problem.getJsonNumber("remaining").longValueExact()).isZero();
        assertThat(problem.getJsonNumber("retryAfter").longValueExact()).isEqualTo(2);
    }

    @Test
    void aBadCostIsAProblemNamingTheRuleAndTheSource() {
        InvalidCostException e = badCost("-3").forRule("search");
        JsonObject problem = json(Problems.invalidCost(e));
        assertThat(problem.keySet()).containsExactly("type", "title", "status", "detail", "rule", "source");
        assertThat(problem.getString("type")).isEqualTo("urn:tollgate:problem:invalid-cost").isEqualTo(Problems.INVALID_COST);
        assertThat(problem.getString("title")).isEqualTo("Bad Request");
        assertThat(problem.getInt("status")).isEqualTo(400);
        assertThat(problem.getString("detail")).isEqualTo("header:x-request-weight = '-3': must not be negative");
        assertThat(problem.getString("rule")).isEqualTo("search");
        assertThat(problem.getString("source")).isEqualTo("header:x-request-weight");
        assertThat(Problems.MEDIA_TYPE).isEqualTo("application/problem+json");
    }

    @Test
    void aBadCostEchoedInTheBodyStaysValidJson() {
        String sent = "\"}, \"status\": 200, \"x\": \"\\";
        InvalidCostException e = badCost(sent).forRule("search");
        JsonObject problem = json(Problems.invalidCost(e));
        assertThat(problem.getInt("status")).isEqualTo(400);
        assertThat(problem.getString("detail")).isEqualTo("header:x-request-weight = '" + sent
                + "': not a number; send a whole number from 1 to 100");
    }

    @Test
    void quotesBackslashesAndControlCharactersAreEscaped() {
        assertThat(Problems.quote("plain")).isEqualTo("\"plain\"");
        assertThat(Problems.quote("a\"b\\c")).isEqualTo("\"a\\\"b\\\\c\"");
        assertThat(Problems.quote("\n\r\t\u0000\u001f\u007f")).isEqualTo("\"\\u000a\\u000d\\u0009\\u0000\\u001f\\u007f\"");
        assertThat(Problems.quote("é €")).isEqualTo("\"é €\"");
        assertThat(Problems.quote("\uD83D\uDE00")).isEqualTo("\"\uD83D\uDE00\"");
        assertThat(Problems.quote("\uD83Dx\uDE00")).isEqualTo("\"\\ud83dx\\ude00\"");
        assertThat(Problems.quote("\uD83D")).isEqualTo("\"\\ud83d\"");
    }

    @Test
    void theViolatedPolicyIsTheLimitThatDenied() {
        JsonObject problem = json(Problems.tooManyRequests(new Decision("multi", false, 1, 0, 1000, 1, 3_600 * SECOND,
                3_600_000, false, false), 4));
        assertThat(problem.getJsonArray("violated-policies").getValuesAs(jakarta.json.JsonString::getString))
                .containsExactly("multi.1");
        assertThat(problem.getJsonNumber("limit").longValueExact()).isEqualTo(1000);
    }

    @Test
    void everyStringSurvivesTheRoundTripThroughJson() {
        String rule = "r\"u\\l/e\n\t\u0001\u007f\u2028 \uD83D\uDE00 end";
        Decision decision = new Decision(rule, false, 1, 0, 5, 0, SECOND, SECOND, false, false);
        JsonObject problem = json(Problems.tooManyRequests(decision, 1));
        assertThat(problem.getString("rule")).isEqualTo(rule);
        assertThat(problem.getString("detail")).isEqualTo("Rate limit rule '" + rule
                + "' allows 5 at once; 0 left, 1 asked for. Retry after 1 s.");
        assertThat(problem.getJsonNumber("retryAfter").longValueExact()).isEqualTo(1);
    }

    private static InvalidCostException badCost(String value) {
        CostSpec cost = CostSpec.fromRequest("header:X-Request-Weight", 1, 1, 100, true);
        RequestView view = new RequestView() {
            @Override
            public List<String> headers(String name) {
                return name.equalsIgnoreCase("x-request-weight") ? List.of(value) : List.of();
            }

            @Override
            public List<String> queryParameters(String name) {
                return List.of();
            }

            @Override
            public String principal() {
                return null;
            }

            @Override
            public String claim(String name) {
                return null;
            }

            @Override
            public String path() {
                return "/";
            }

            @Override
            public String remoteAddress() {
                return "198.51.100.7";
            }
        };
        InvalidCostException e = catchThrowableOfType(InvalidCostException.class,
                () -> cost.resolve(new IncomingRequest(view, TrustedProxies.NONE)));
        assertThat(e).isNotNull();
        return e;
    }
}
