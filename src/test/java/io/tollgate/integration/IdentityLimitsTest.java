package io.tollgate.integration;

import static io.tollgate.testing.Http.header;
import static io.tollgate.testing.Http.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.Decision;
import io.tollgate.RateLimitRules;
import io.tollgate.RateLimiter;
import io.tollgate.app.IdentityResource;
import io.tollgate.app.ReportService;
import io.tollgate.app.ReportsResource;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.SharedCluster;
import io.tollgate.testing.TestApp;
import io.tollgate.testing.Tokens;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Limits from the caller's identity on the Jakarta EE stack: each caller's verified claim {@code rate_limit} is its
 * limits, capped at {@code max-limit}; a caller without one gets the rule's own; the filter, a path rule and the
 * interceptor all decide by them, and the headers show them.
 */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
class IdentityLimitsTest {

    private static TestApp app;

    @BeforeAll
    static void start(HazelcastTestCluster cluster) throws Exception {
        cluster.clock().set(2_300_000_000L * 1_000_000);
        TestApp.Builder builder = TestApp.builder().beans(IdentityResource.class, ReportsResource.class, ReportService.class)
                .hazelcast(cluster.member(0))
                .property("tollgate.hazelcast.map", "identity-" + UUID.randomUUID())
                .property("tollgate.rules.reports.rate", "100");
        for (String rule : new String[] {"plan", "by-path", "llm"}) {
            builder.property("tollgate.rules." + rule + ".rate", "1/1h")
                    .property("tollgate.rules." + rule + ".key", "jwt:sub")
                    .property("tollgate.rules." + rule + ".limits-from", "jwt:rate_limit")
                    .property("tollgate.rules." + rule + ".max-limit", "10/1h");
        }
        app = builder.property("tollgate.rules.by-path.paths", "/identity/by-path").start();
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    private static String caller(String subject, String rateLimit) {
        Map<String, Object> claims = rateLimit == null ? Map.of() : Map.of("rate_limit", rateLimit);
        return "Bearer " + Tokens.token(subject, claims);
    }

    /** @return how many of {@code attempts} requests were allowed; each shows {@code policy}, and after the first 429 all are 429s */
    private static int allowedOf(String path, String authorization, int attempts, String policy) throws Exception {
        int allowed = 0;
        for (int i = 0; i < attempts; i++) {
            HttpResponse<String> response = app.get(path, "Authorization", authorization);
            assertThat(response.statusCode()).as("request %d", i + 1).isIn(200, 429);
            assertThat(header(response, "RateLimit-Policy")).as("request %d", i + 1).isEqualTo(policy);
            if (response.statusCode() == 200) {
                assertThat(allowed).as("allowed after a 429").isEqualTo(i);
                allowed++;
            }
        }
        return allowed;
    }

    @Test
    void twoCallersGetTheLimitsTheirClaimsGive() throws Exception {
        assertThat(allowedOf("identity/annotated", caller("basic-user", "2/1h"), 8, "\"plan\";q=2;w=3600")).isEqualTo(2);
        assertThat(allowedOf("identity/annotated", caller("pro-user", "5/1h"), 8, "\"plan\";q=5;w=3600")).isEqualTo(5);
        HttpResponse<String> denied = app.get("identity/annotated", "Authorization", caller("pro-user", "5/1h"));
        assertThat(denied.statusCode()).isEqualTo(429);
        assertThat(json(denied).getInt("burst")).isEqualTo(5);
        assertThat(json(denied).getString("detail")).startsWith("Rate limit rule 'plan' allows 5 at once; 0 left");
    }

    @Test
    void aClaimAboveTheBoundGetsTheBound() throws Exception {
        assertThat(allowedOf("identity/annotated", caller("greedy-user", "1000/1s burst 5000"), 14, "\"plan\";q=10;w=3600"))
                .isEqualTo(10);
    }

    @Test
    void aCallerWithoutTheClaimOrWithOneThatIsNotLimitsGetsTheRulesOwn() throws Exception {
        assertThat(allowedOf("identity/annotated", caller("claimless-user", null), 4, "\"plan\";q=1;w=3600")).isEqualTo(1);
        assertThat(allowedOf("identity/annotated", caller("odd-user", "unlimited"), 4, "\"plan\";q=1;w=3600")).isEqualTo(1);
    }

    @Test
    void aPathRuleAndTheInterceptorDecideByTheClaimToo() throws Exception {
        assertThat(allowedOf("identity/by-path", caller("path-user", "3/1h"), 6, "\"by-path\";q=3;w=3600")).isEqualTo(3);
        String llmCaller = caller("llm-user", "3/1h");
        int allowed = 0;
        for (int i = 0; i < 6; i++) {
            if (app.get("reports/complete", "Authorization", llmCaller).statusCode() == 200) {
                allowed++;
            }
        }
        assertThat(allowed).isEqualTo(3);
    }

    @Test
    void theProgrammaticApiHasNoRequestAndUsesTheRulesOwnLimits() {
        RateLimiter limiter = app.bean(RateLimiter.class);
        Decision first = limiter.tryAcquire("plan", "api-caller");
        assertThat(first.allowed()).isTrue();
        assertThat(first.burst()).isEqualTo(1);
        assertThat(limiter.tryAcquire("plan", "api-caller").allowed()).isFalse();
    }

    @Test
    void aLowerBoundSetAtRuntimeCapsTheNextRequests() throws Exception {
        RateLimitRules rules = app.bean(RateLimitRules.class);
        try {
            assertThat(rules.change("by-path", Map.of("max-limit", "3/1h"))).containsEntry("max-limit", "3/1h burst 3");
            assertThat(allowedOf("identity/by-path", caller("capped-user", "8/1h"), 6, "\"by-path\";q=3;w=3600")).isEqualTo(3);
        } finally {
            rules.revert("by-path");
        }
        assertThat(allowedOf("identity/by-path", caller("uncapped-user", "8/1h"), 10, "\"by-path\";q=8;w=3600")).isEqualTo(8);
    }
}
