package io.tollgate.integration;

import static io.tollgate.testing.Http.header;
import static io.tollgate.testing.Http.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.tollgate.MissingKeyException;
import io.tollgate.RateLimitRefusedException;
import io.tollgate.app.GuardedResource;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.SharedCluster;
import io.tollgate.testing.TestApp;
import jakarta.json.JsonObject;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Rules with conditions over HTTP: {@code match} on the method, on a negated header, {@code exempt} by client address
 * behind a trusted proxy and by role, and each {@code on-missing-key} policy, counted by status code.
 */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
class ConditionalRulesTest {

    private static TestApp app;

    @BeforeAll
    static void start(HazelcastTestCluster cluster) throws Exception {
        cluster.clock().set(2_400_000_000L * 1_000_000);
        TestApp.Builder builder = TestApp.builder().beans(GuardedResource.class).hazelcast(cluster.member(0))
                .property("tollgate.hazelcast.map", "conditions-" + UUID.randomUUID())
                .property("tollgate.trusted-proxies", "127.0.0.1");
        rule(builder, "writes", "/guarded/method", "match", "method=POST");
        rule(builder, "untiered", "/guarded/negation", "match", "header:X-Tier!=gold");
        rule(builder, "outsiders", "/guarded/cidr", "exempt", "ip=10.0.0.0/8|fd00::/8").property("tollgate.rules.outsiders.key", "ip");
        rule(builder, "non-admins", "/guarded/role", "exempt", "role=admin");
        rule(builder, "auditors", "/guarded/auditors", "match", "role=auditor|operator");
        rule(builder, "keyless-shared", "/guarded/shared", "on-missing-key", "shared");
        rule(builder, "keyless-skipped", "/guarded/skip", "on-missing-key", "skip");
        rule(builder, "keyless-rejected", "/guarded/reject", "on-missing-key", "reject");
        builder.property("tollgate.rules.reject-global.rate", "1/1h").property("tollgate.rules.reject-global.burst", "3")
                .property("tollgate.rules.reject-global.key", "global").property("tollgate.rules.reject-global.paths", "/guarded/reject");
        builder.property("tollgate.rules.keyed-service.rate", "1/1h").property("tollgate.rules.keyed-service.key", "header:X-Api-Key")
                .property("tollgate.rules.keyed-service.on-missing-key", "reject");
        app = builder.start();
    }

    /** A rule of burst 2, an hour per token, keyed by X-Api-Key, on {@code path}, with one more attribute. */
    private static TestApp.Builder rule(TestApp.Builder builder, String name, String path, String attribute, String value) {
        String prefix = "tollgate.rules." + name + ".";
        return builder.property(prefix + "rate", "1/1h").property(prefix + "burst", "2").property(prefix + "key", "header:X-Api-Key")
                .property(prefix + "paths", path).property(prefix + attribute, value);
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    /** @return how many of {@code count} requests got each status, e.g. {200=2, 429=3} */
    private static Map<Integer, Integer> statuses(int count, String method, String path, String... headers) throws Exception {
        Map<Integer, Integer> statuses = new TreeMap<>();
        for (int i = 0; i < count; i++) {
            statuses.merge(app.send(method, path, headers).statusCode(), 1, Integer::sum);
        }
        return statuses;
    }

    @Test
    void aMethodConditionLimitsPostsAndLeavesGetsAlone() throws Exception {
        assertThat(statuses(10, "GET", "guarded/method", "X-Api-Key", "m1")).isEqualTo(Map.of(200, 10));
        assertThat(header(app.get("guarded/method", "X-Api-Key", "m1"), "RateLimit")).isNull();
        assertThat(statuses(5, "POST", "guarded/method", "X-Api-Key", "m1")).isEqualTo(Map.of(200, 2, 429, 3));
    }

    @Test
    void aNegatedConditionLimitsEveryoneButGoldAndRequestsWithoutATier() throws Exception {
        assertThat(statuses(10, "GET", "guarded/negation", "X-Api-Key", "n1", "X-Tier", "gold")).isEqualTo(Map.of(200, 10));
        assertThat(statuses(5, "GET", "guarded/negation", "X-Api-Key", "n1", "X-Tier", "silver")).isEqualTo(Map.of(200, 2, 429, 3));
        assertThat(statuses(5, "GET", "guarded/negation", "X-Api-Key", "n2")).isEqualTo(Map.of(200, 2, 429, 3));
    }

    @Test
    void aClientInAnExemptRangeBehindTheTrustedProxyIsNeverLimitedNorToldOfTheRule() throws Exception {
        for (int i = 0; i < 20; i++) {
            HttpResponse<String> response = app.get("guarded/cidr", "X-Forwarded-For", "10.1.2.3");
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(header(response, "RateLimit")).isNull();
            assertThat(header(response, "RateLimit-Policy")).isNull();
        }
        assertThat(statuses(10, "GET", "guarded/cidr", "X-Forwarded-For", "fd00::7")).isEqualTo(Map.of(200, 10));
        HttpResponse<String> outside = app.get("guarded/cidr", "X-Forwarded-For", "198.51.100.20");
        assertThat(header(outside, "RateLimit-Policy")).isEqualTo("\"outsiders\";q=1;w=3600");
        assertThat(statuses(4, "GET", "guarded/cidr", "X-Forwarded-For", "198.51.100.20")).isEqualTo(Map.of(200, 1, 429, 3));
        // what a client writes left of the proxy's entry is never its address
        assertThat(statuses(3, "GET", "guarded/cidr", "X-Forwarded-For", "10.1.2.3, 198.51.100.20")).isEqualTo(Map.of(429, 3));
    }

    @Test
    void anAdministratorIsExemptAndOtherUsersAreLimited() throws Exception {
        assertThat(statuses(10, "GET", "guarded/role", "X-Api-Key", "r1", "X-Test-User", "ada", "X-Test-Roles", "user, admin"))
                .isEqualTo(Map.of(200, 10));
        assertThat(statuses(5, "GET", "guarded/role", "X-Api-Key", "r1", "X-Test-User", "bob", "X-Test-Roles", "user"))
                .isEqualTo(Map.of(200, 2, 429, 3));
        assertThat(statuses(10, "GET", "guarded/auditors", "X-Api-Key", "r2", "X-Test-User", "bob", "X-Test-Roles", "user"))
                .isEqualTo(Map.of(200, 10));
        assertThat(statuses(5, "GET", "guarded/auditors", "X-Api-Key", "r2", "X-Test-User", "cy", "X-Test-Roles", "operator"))
                .isEqualTo(Map.of(200, 2, 429, 3));
    }

    @Test
    void sharedPutsEveryKeylessRequestInOneBucket() throws Exception {
        assertThat(statuses(5, "GET", "guarded/shared")).isEqualTo(Map.of(200, 2, 429, 3));
        assertThat(statuses(3, "GET", "guarded/shared", "X-Api-Key", "")).as("an empty key is the keyless bucket")
                .isEqualTo(Map.of(429, 3));
        assertThat(statuses(3, "GET", "guarded/shared", "X-Api-Key", "s1")).isEqualTo(Map.of(200, 2, 429, 1));
    }

    @Test
    void skipLetsKeylessRequestsPastTheRule() throws Exception {
        for (int i = 0; i < 10; i++) {
            HttpResponse<String> response = app.get("guarded/skip");
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(header(response, "RateLimit")).isNull();
        }
        assertThat(statuses(3, "GET", "guarded/skip", "X-Api-Key", "k1")).isEqualTo(Map.of(200, 2, 429, 1));
    }

    @Test
    void rejectAnswers400NamingTheMissingPartAndChargesNothing() throws Exception {
        for (int i = 0; i < 5; i++) {
            HttpResponse<String> response = app.get("guarded/reject");
            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(header(response, "Content-Type")).isEqualTo("application/problem+json");
            assertThat(header(response, "RateLimit")).isNull();
            JsonObject problem = json(response);
            assertThat(problem.keySet()).containsExactly("type", "title", "status", "detail", "rule", "source");
            assertThat(problem.getString("type")).isEqualTo("urn:tollgate:problem:missing-key");
            assertThat(problem.getString("title")).isEqualTo("Bad Request");
            assertThat(problem.getInt("status")).isEqualTo(400);
            assertThat(problem.getString("detail"))
                    .isEqualTo("Rate limit rule 'keyless-rejected' needs header:x-api-key for its key, and the request has none.");
            assertThat(problem.getString("rule")).isEqualTo("keyless-rejected");
            assertThat(problem.getString("source")).isEqualTo("header:x-api-key");
        }
        // the global rule on the same path was charged by none of them: its burst of 3 is whole
        assertThat(statuses(2, "GET", "guarded/reject", "X-Api-Key", "j1")).isEqualTo(Map.of(200, 2));
        assertThat(statuses(2, "GET", "guarded/reject", "X-Api-Key", "j2")).isEqualTo(Map.of(200, 1, 429, 1));
    }

    @Test
    void rejectOutsideAnHttpRequestThrowsAClearException() {
        GuardedResource service = app.bean(GuardedResource.class);
        assertThatThrownBy(service::service).isInstanceOf(MissingKeyException.class)
                .hasMessage("Rate limit rule 'keyed-service' needs header:x-api-key for its key, and a call outside an HTTP "
                        + "request has none (on-missing-key=reject); give such calls their key with @RateLimitKey or RateLimiter.");
    }

    @Test
    void aRefusalIsCaughtAsTheOneBaseTypeOfTollgatesRefusals() {
        GuardedResource service = app.bean(GuardedResource.class);
        RateLimitRefusedException refused = catchThrowableOfType(RateLimitRefusedException.class, service::service);
        assertThat(refused).isInstanceOf(MissingKeyException.class);
        assertThat(refused.rule()).isEqualTo("keyed-service");
        assertThat(refused.status()).isEqualTo(400);
        assertThat(((MissingKeyException) refused).part()).isEqualTo("header:x-api-key");
    }
}
