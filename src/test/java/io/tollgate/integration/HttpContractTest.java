package io.tollgate.integration;

import static io.tollgate.testing.Http.header;
import static io.tollgate.testing.Http.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.app.ItemsResource;
import io.tollgate.app.KeysResource;
import io.tollgate.app.SearchResource;
import io.tollgate.app.TenantKeys;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.SharedCluster;
import io.tollgate.testing.TestApp;
import jakarta.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The HTTP contract (the README's "HTTP contract") over a real Jakarta EE stack and the Hazelcast store, on a driven clock. */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
class HttpContractTest {

    private static HazelcastTestCluster cluster;
    private static TestApp app;

    @BeforeAll
    static void start(HazelcastTestCluster shared) throws Exception {
        cluster = shared;
        app = TestApp.builder()
                .beans(SearchResource.class, ItemsResource.class, KeysResource.class, TenantKeys.class)
                .hazelcast(cluster.member(0))
                .property("tollgate.hazelcast.map", "http-contract-" + UUID.randomUUID())
                // these tests move the members' clock by hand; the denial cache runs on this JVM's
                // monotonic clock, which a test cannot move, so it would keep denying across the jumps
                .property("tollgate.denial-cache", "false")
                .properties(SampleRules.keys())
                .property("tollgate.rules.everyone.rate", null)
                .property("tollgate.rules.everyone.burst", null)
                .property("tollgate.rules.search.rate", "1/1h")
                .property("tollgate.rules.search.burst", "3")
                .property("tollgate.rules.everyone.limits", "10/s burst 20, 25/1h")
                .property("tollgate.rules.everyone.key", "global")
                .property("tollgate.rules.upload.rate", "1/1h")
                .property("tollgate.rules.upload.burst", "5")
                .start();
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @BeforeEach
    void stopTheClock() {
        cluster.clock().set(2_000_000_000L * 1_000_000);
    }

    @Test
    void allowedResponsesCarryThePolicyAndTheRemainingTokens() throws Exception {
        String client = "203.0.113." + (System.nanoTime() % 200); // a fresh key per run: X-Forwarded-For is not trusted here
        HttpResponse<String> first = app.get("search?q=tea", "X-Api-Key", client);
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.body()).isEqualTo("results for tea");
        assertThat(header(first, "RateLimit-Policy")).isEqualTo("\"search\";q=1;w=3600");
        assertThat(header(first, "RateLimit")).isEqualTo("\"search\";r=2;t=3600");
        assertThat(header(app.get("search?q=tea"), "RateLimit")).isEqualTo("\"search\";r=1;t=3600");
        assertThat(header(app.get("search?q=tea"), "RateLimit")).isEqualTo("\"search\";r=0;t=3600");
        assertThat(header(first, "Retry-After")).isNull();

        HttpResponse<String> denied = app.get("search?q=tea");
        assertThat(denied.statusCode()).isEqualTo(429);
        assertThat(header(denied, "Content-Type")).isEqualTo("application/problem+json");
        assertThat(header(denied, "RateLimit-Policy")).isEqualTo("\"search\";q=1;w=3600");
        assertThat(header(denied, "RateLimit")).isEqualTo("\"search\";r=0;t=3600");
        long retryAfter = Long.parseLong(header(denied, "Retry-After"));
        assertThat(retryAfter).isBetween(3600L, 5400L); // one hour, plus up to 50% per-client jitter
        JsonObject problem = json(denied);
        assertThat(problem.getString("type")).isEqualTo("https://iana.org/assignments/http-problem-types#quota-exceeded");
        assertThat(problem.getString("title")).isEqualTo("Quota Exceeded");
        assertThat(problem.getJsonArray("violated-policies").getString(0)).isEqualTo("search");
        assertThat(problem.getInt("status")).isEqualTo(429);
        assertThat(problem.getString("rule")).isEqualTo("search");
        assertThat(problem.getInt("burst")).isEqualTo(3);
        assertThat(problem.getInt("remaining")).isZero();
        assertThat(problem.getJsonNumber("retryAfter").longValue()).isEqualTo(retryAfter);
        assertThat(problem.getString("detail")).contains("'search'").contains("Retry after " + retryAfter + " s");
        // the same client always gets the same offset
        assertThat(header(app.get("search?q=tea"), "Retry-After")).isEqualTo(Long.toString(retryAfter));

        cluster.clock().advance(Duration.ofHours(1));
        HttpResponse<String> later = app.get("search?q=tea");
        assertThat(later.statusCode()).isEqualTo(200);
        assertThat(header(later, "RateLimit")).isEqualTo("\"search\";r=0;t=3600");
    }

    @Test
    void retryAfterSpreadsClientsOutButNeverBelowTheExactWait() throws Exception {
        Set<String> values = new HashSet<>();
        String run = UUID.randomUUID().toString();
        for (int i = 0; i < 30; i++) {
            String key = run + "-" + i;
            assertThat(app.get("keys/header", "X-Api-Key", key).statusCode()).isEqualTo(200);
            HttpResponse<String> denied = app.get("keys/header", "X-Api-Key", key);
            assertThat(denied.statusCode()).isEqualTo(429);
            long retryAfter = Long.parseLong(header(denied, "Retry-After"));
            assertThat(retryAfter).isBetween(3600L, 5400L);
            assertThat(header(app.get("keys/header", "X-Api-Key", key), "Retry-After")).isEqualTo(Long.toString(retryAfter));
            values.add(Long.toString(retryAfter));
        }
        assertThat(values).hasSizeGreaterThan(20);
    }

    @Test
    void aRuleWithSeveralLimitsAdvertisesEachAndReportsTheTightest() throws Exception {
        HttpResponse<String> first = app.get("keys/global");
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(header(first, "RateLimit-Policy")).isEqualTo("\"everyone\";q=10;w=1, \"everyone.1\";q=25;w=3600");
        assertThat(header(first, "RateLimit")).isEqualTo("\"everyone\";r=19;t=1");
        for (int i = 0; i < 19; i++) {
            app.get("keys/global");
        }
        // 20 taken: the per-second limit is empty, the hourly one holds 5
        assertThat(app.get("keys/global").statusCode()).isEqualTo(429);
        cluster.clock().advance(Duration.ofSeconds(2));
        for (int i = 0; i < 5; i++) {
            assertThat(app.get("keys/global").statusCode()).isEqualTo(200);
        }
        HttpResponse<String> hourly = app.get("keys/global");
        assertThat(hourly.statusCode()).isEqualTo(429);
        assertThat(header(hourly, "RateLimit")).startsWith("\"everyone.1\";r=0;");
        assertThat(json(hourly).getString("rule")).isEqualTo("everyone");
        assertThat(json(hourly).getJsonArray("violated-policies").getString(0)).isEqualTo("everyone.1");
        assertThat(Long.parseLong(header(hourly, "Retry-After"))).isBetween(144L, 216L); // 3600/25 s per token
    }

    @Test
    void unannotatedEndpointsWithoutPathRulesAreNotLimited() throws Exception {
        for (int i = 0; i < 10; i++) {
            HttpResponse<String> response = app.get("items/" + i);
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(header(response, "RateLimit")).isNull();
        }
    }
}
