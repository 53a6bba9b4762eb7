package io.tollgate.it;

import static io.tollgate.it.Http.contentType;
import static io.tollgate.it.Http.describe;
import static io.tollgate.it.Http.get;
import static io.tollgate.it.Http.header;
import static io.tollgate.it.Http.json;
import static io.tollgate.it.Http.request;
import static io.tollgate.it.Http.send;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.net.URL;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The HTTP contract (README "HTTP contract"), over HTTP, on a real server: the sample application with the
 * rules of configs/contract.properties (refill per hour, so that no count depends on timing; one bucket
 * per test through a fresh X-Api-Key or tenant). Rate-limit fields and the problem type as
 * draft-ietf-httpapi-ratelimit-headers-11 has them; a 429's status line read as the server wrote it.
 */
@ExtendWith(ArquillianExtension.class)
class RateLimitContractIT {

    private static final String PROBLEM_JSON = "application/problem+json";
    private static final String QUOTA_EXCEEDED = "https://iana.org/assignments/http-problem-types#quota-exceeded";
    private static final String INVALID_COST = "urn:tollgate:problem:invalid-cost";
    private static final long HOUR = 3600;

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.contract("contract");
    }

    @ArquillianResource
    URL base;

    private static String freshKey() {
        return "key-" + UUID.randomUUID();
    }

    @Test
    void servesOnTheLoopbackInterface() {
        assertTrue(base.getHost().equals("127.0.0.1") || base.getHost().equals("localhost"), "not loopback: " + base);
    }

    @Test
    void theBurstPassesThenA429WithRetryAfterHeadersAndProblemBody() {
        String key = freshKey();
        Bucket bucket = new Bucket();
        for (int i = 1; i <= 3; i++) {
            HttpResponse<String> ok = get(base, "api/search?q=tea", "X-Api-Key", key);
            assertEquals(200, ok.statusCode(), describe(ok));
            assertEquals("results for tea", ok.body());
            assertEquals("\"search\";q=1;w=3600", header(ok, "RateLimit-Policy"), describe(ok));
            bucket.assertRateLimit(ok, "search", 3 - i, HOUR);
            assertNull(header(ok, "Retry-After"), describe(ok));
        }

        HttpResponse<String> denied = get(base, "api/search?q=tea", "X-Api-Key", key);
        assertEquals(429, denied.statusCode(), describe(denied));
        assertEquals(PROBLEM_JSON, contentType(denied).orElse(null), describe(denied));
        assertEquals("\"search\";q=1;w=3600", header(denied, "RateLimit-Policy"), describe(denied));
        bucket.assertRateLimit(denied, "search", 0, HOUR);
        long retryAfter = bucket.assertRetryAfter(denied, HOUR);
        Bucket.assertRetryAfterNotBeforeT(denied);

        JsonObject problem = json(denied);
        assertEquals(QUOTA_EXCEEDED, problem.getString("type"), denied.body());
        assertEquals("Quota Exceeded", problem.getString("title"), denied.body());
        assertEquals(429, problem.getInt("status"), denied.body());
        assertEquals(List.of("search"), strings(problem, "violated-policies"), denied.body());
        assertEquals("search", problem.getString("rule"), denied.body());
        assertEquals(3, problem.getInt("burst"), denied.body());
        assertEquals(0, problem.getInt("remaining"), denied.body());
        assertEquals(retryAfter, problem.getJsonNumber("retryAfter").longValueExact(), denied.body());
        assertTrue(problem.getString("detail").contains("Retry after " + retryAfter + " s"), denied.body());

        // and it stays denied
        assertEquals(429, get(base, "api/search?q=tea", "X-Api-Key", key).statusCode());
    }

    @Test
    void a429HasItsReasonPhrase() {
        // denied by the filter (a rule on the resource method)
        String key = freshKey();
        for (int i = 0; i < 3; i++) {
            assertEquals(200, get(base, "api/search?q=tea", "X-Api-Key", key).statusCode());
        }
        RawHttp.Response byFilter = RawHttp.get(base, "api/search?q=tea", "X-Api-Key", key);
        assertEquals("HTTP/1.1 429 Too Many Requests", byFilter.statusLine(), byFilter.describe());

        // denied by the interceptor (a rule on a CDI service), mapped by the exception mapper
        String tenant = "tenant-" + UUID.randomUUID();
        for (int i = 0; i < 2; i++) {
            assertEquals(200, get(base, "api/reports/" + tenant).statusCode());
        }
        RawHttp.Response byMapper = RawHttp.get(base, "api/reports/" + tenant);
        assertEquals("HTTP/1.1 429 Too Many Requests", byMapper.statusLine(), byMapper.describe());
    }

    /** A client told to slow down keeps its connection: it is not made to connect again (on Open Liberty, to TLS) to be told again. */
    @Test
    void a429KeepsTheConnectionOpen() {
        String key = freshKey();
        List<RawHttp.Response> answers = RawHttp.getAll(base, "api/search?q=tea", 5, "X-Api-Key", key);
        assertEquals(List.of(200, 200, 200, 429, 429), answers.stream().map(RawHttp.Response::status).toList(),
                answers.stream().map(RawHttp.Response::describe).toList().toString());
        for (RawHttp.Response answer : answers.subList(0, 4)) {
            assertNotEquals("close", String.valueOf(answer.header("Connection")).toLowerCase(Locale.ROOT), answer.describe());
        }
    }

    @Test
    void eachKeyHasItsOwnBucket() {
        String spent = freshKey();
        for (int i = 0; i < 3; i++) {
            assertEquals(200, get(base, "api/search?q=a", "X-Api-Key", spent).statusCode());
        }
        assertEquals(429, get(base, "api/search?q=a", "X-Api-Key", spent).statusCode());

        String other = freshKey();
        Bucket bucket = new Bucket();
        HttpResponse<String> ok = get(base, "api/search?q=a", "X-Api-Key", other);
        assertEquals(200, ok.statusCode(), describe(ok));
        bucket.assertRateLimit(ok, "search", 2, HOUR);
    }

    @Test
    void statedCostsAreChargedExactly() {
        String key = freshKey();
        Bucket bucket = new Bucket();
        HttpResponse<String> four = upload(key, "4");
        assertEquals(200, four.statusCode(), describe(four));
        assertEquals("stored 4 characters", four.body());
        assertEquals("\"uploads\";q=1;w=3600", header(four, "RateLimit-Policy"), describe(four));
        bucket.assertRateLimit(four, "uploads", 6, HOUR);

        HttpResponse<String> five = upload(key, "5");
        assertEquals(200, five.statusCode(), describe(five));
        bucket.assertRateLimit(five, "uploads", 1, HOUR);

        // no header: default-cost 2, one token left
        HttpResponse<String> byDefault = upload(key);
        assertEquals(429, byDefault.statusCode(), describe(byDefault));
        bucket.assertRateLimit(byDefault, "uploads", 1, HOUR);
        JsonObject problem = json(byDefault);
        assertEquals(QUOTA_EXCEEDED, problem.getString("type"));
        assertEquals(List.of("uploads"), strings(problem, "violated-policies"), byDefault.body());
        assertEquals("uploads", problem.getString("rule"));
        assertEquals(10, problem.getInt("burst"));
        assertEquals(1, problem.getInt("remaining"));
        long retryAfter = bucket.assertRetryAfter(byDefault, HOUR); // the second token is an hour away
        assertEquals(retryAfter, problem.getJsonNumber("retryAfter").longValueExact());
        Bucket.assertRetryAfterNotBeforeT(byDefault);

        HttpResponse<String> one = upload(key, "1");
        assertEquals(200, one.statusCode(), describe(one));
        bucket.assertRateLimit(one, "uploads", 0, HOUR);
        assertEquals(429, upload(key, "1").statusCode());
    }

    @Test
    void badCostsAreRejectedWith400AndChargeNothing() {
        String key = freshKey();
        String[][] badValues = {{"-1"}, {"1.5"}, {"NaN"}, {"6"}, {"0"}, {"1e3"}, {"abc"}, {"1", "1"}};
        for (String[] values : badValues) {
            HttpResponse<String> bad = upload(key, values);
            String what = "X-Request-Weight " + String.join(" + ", values) + ": " + describe(bad);
            assertEquals(400, bad.statusCode(), what);
            assertEquals(PROBLEM_JSON, contentType(bad).orElse(null), what);
            JsonObject problem = json(bad);
            assertEquals(INVALID_COST, problem.getString("type"), what);
            assertEquals(400, problem.getInt("status"), what);
            assertEquals("uploads", problem.getString("rule"), what);
            assertTrue(problem.getString("detail").toLowerCase().contains("x-request-weight"), what);
            assertNull(header(bad, "Retry-After"), what);
        }
        // nothing was charged: the whole burst is still there
        Bucket bucket = new Bucket();
        HttpResponse<String> five = upload(key, "5");
        assertEquals(200, five.statusCode(), describe(five));
        bucket.assertRateLimit(five, "uploads", 5, HOUR);
    }

    @Test
    void theRejectedCostIsNamedInTheProblem() {
        HttpResponse<String> bad = upload(freshKey(), "1.5");
        assertEquals(400, bad.statusCode(), describe(bad));
        JsonObject problem = json(bad);
        assertEquals("header:x-request-weight", problem.getString("source").toLowerCase(), bad.body());
        assertTrue(problem.getString("detail").contains("'1.5'"), bad.body());
    }

    @Test
    void tiersApplyTheRuleOfThePlan() {
        String key = freshKey();
        Bucket free = new Bucket();
        for (int i = 1; i <= 2; i++) {
            HttpResponse<String> ok = get(base, "api/plans", "X-Api-Key", key, "X-Plan", "free");
            assertEquals(200, ok.statusCode(), describe(ok));
            assertEquals("content for the free plan", ok.body());
            assertEquals("\"free-plan\";q=1;w=3600", header(ok, "RateLimit-Policy"), describe(ok));
            free.assertRateLimit(ok, "free-plan", 2 - i, HOUR);
        }
        HttpResponse<String> deniedFree = get(base, "api/plans", "X-Api-Key", key, "X-Plan", "free");
        assertEquals(429, deniedFree.statusCode(), describe(deniedFree));
        assertEquals("free-plan", json(deniedFree).getString("rule"));

        // the same key on the paid plan: its own rule, its own bucket
        Bucket paid = new Bucket();
        for (int i = 1; i <= 5; i++) {
            HttpResponse<String> ok = get(base, "api/plans", "X-Api-Key", key, "X-Plan", "paid");
            assertEquals(200, ok.statusCode(), describe(ok));
            assertEquals("\"paid-plan\";q=2;w=3600", header(ok, "RateLimit-Policy"), describe(ok));
            paid.assertRateLimit(ok, "paid-plan", 5 - i, HOUR / 2);
        }
        HttpResponse<String> deniedPaid = get(base, "api/plans", "X-Api-Key", key, "X-Plan", "paid");
        assertEquals(429, deniedPaid.statusCode(), describe(deniedPaid));
        assertEquals("paid-plan", json(deniedPaid).getString("rule"));
        assertEquals(List.of("paid-plan"), strings(json(deniedPaid), "violated-policies"), deniedPaid.body());
        paid.assertRetryAfter(deniedPaid, HOUR / 2);
        Bucket.assertRetryAfterNotBeforeT(deniedPaid);

        // no plan: neither rule applies
        for (int i = 0; i < 5; i++) {
            HttpResponse<String> none = get(base, "api/plans", "X-Api-Key", key);
            assertEquals(200, none.statusCode(), describe(none));
            assertNull(header(none, "RateLimit-Policy"), describe(none));
            assertNull(header(none, "RateLimit"), describe(none));
        }
    }

    @Test
    void shadowModeNeverRejectsAndAdvertisesNothing() {
        String key = freshKey();
        for (int i = 0; i < 5; i++) { // the rule allows 1
            HttpResponse<String> ok = get(base, "api/recommendations", "X-Api-Key", key);
            assertEquals(200, ok.statusCode(), describe(ok));
            assertEquals("you may also like: green tea", ok.body());
            assertNull(header(ok, "RateLimit-Policy"), describe(ok));
            assertNull(header(ok, "RateLimit"), describe(ok));
            assertNull(header(ok, "Retry-After"), describe(ok));
        }
    }

    @Test
    void aRateLimitedCdiServiceIsLimitedPerKeyArgumentAndMappedTo429() {
        String tenant = "tenant-" + UUID.randomUUID();
        Bucket bucket = new Bucket();
        for (int i = 1; i <= 2; i++) {
            HttpResponse<String> ok = get(base, "api/reports/" + tenant);
            assertEquals(200, ok.statusCode(), describe(ok));
            assertEquals("report for " + tenant, ok.body());
            assertEquals("\"reports\";q=1;w=3600", header(ok, "RateLimit-Policy"), describe(ok));
            bucket.assertRateLimit(ok, "reports", 2 - i, HOUR);
        }
        HttpResponse<String> denied = get(base, "api/reports/" + tenant);
        assertEquals(429, denied.statusCode(), describe(denied));
        assertEquals(PROBLEM_JSON, contentType(denied).orElse(null), describe(denied));
        long retryAfter = bucket.assertRetryAfter(denied, HOUR);
        JsonObject problem = json(denied);
        assertEquals(QUOTA_EXCEEDED, problem.getString("type"));
        assertEquals(429, problem.getInt("status"));
        assertEquals(List.of("reports"), strings(problem, "violated-policies"), denied.body());
        assertEquals("reports", problem.getString("rule"));
        assertEquals(2, problem.getInt("burst"));
        assertEquals(0, problem.getInt("remaining"));
        assertEquals(retryAfter, problem.getJsonNumber("retryAfter").longValueExact());
        assertEquals("\"reports\";q=1;w=3600", header(denied, "RateLimit-Policy"), describe(denied));
        bucket.assertRateLimit(denied, "reports", 0, HOUR);
        Bucket.assertRetryAfterNotBeforeT(denied);

        // another tenant is not affected
        HttpResponse<String> other = get(base, "api/reports/other-" + tenant);
        assertEquals(200, other.statusCode(), describe(other));
    }

    @Test
    void aPathRuleLimitsAnUnannotatedEndpoint() {
        String key = freshKey();
        Bucket bucket = new Bucket();
        for (int i = 1; i <= 2; i++) {
            HttpResponse<String> ok = get(base, "api/items/" + i, "X-Api-Key", key);
            assertEquals(200, ok.statusCode(), describe(ok));
            assertEquals("item " + i, ok.body());
            assertEquals("\"items\";q=1;w=3600", header(ok, "RateLimit-Policy"), describe(ok));
            bucket.assertRateLimit(ok, "items", 2 - i, HOUR);
        }
        HttpResponse<String> denied = get(base, "api/items/3", "X-Api-Key", key);
        assertEquals(429, denied.statusCode(), describe(denied));
        assertEquals("items", json(denied).getString("rule"));
        bucket.assertRetryAfter(denied, HOUR);
    }

    @Test
    void anEndpointWithoutRulesIsNeverLimited() {
        for (int i = 0; i < 25; i++) {
            HttpResponse<String> ok = get(base, "api/status");
            assertEquals(200, ok.statusCode(), describe(ok));
            assertEquals("up", ok.body());
            assertNull(header(ok, "RateLimit-Policy"), describe(ok));
            assertNull(header(ok, "RateLimit"), describe(ok));
        }
    }

    /** Off (the default), the admin resource answers every method as a path that does not exist, and reveals nothing. */
    @Test
    void theAdminResourceOffAnswersEveryMethodAsAMissingPath() {
        for (String path : List.of("api/tollgate/admin/rules", "api/tollgate/admin/rules/items/reset")) {
            for (String method : List.of("OPTIONS", "PUT", "DELETE", "HEAD", "GET", "POST")) {
                HttpRequest.BodyPublisher body = method.startsWith("P") ? HttpRequest.BodyPublishers.ofString("key")
                        : HttpRequest.BodyPublishers.noBody();
                HttpResponse<String> answer = send(request(base, path, "X-Requested-By", "it").method(method, body));
                HttpResponse<String> missing = send(request(base, path.replace("admin", "nimda"), "X-Requested-By", "it")
                        .method(method, body));
                assertEquals(404, missing.statusCode(), describe(missing));
                assertEquals(404, answer.statusCode(), method + " " + describe(answer));
                assertNull(header(answer, "Allow"), method + " " + describe(answer));
            }
        }
    }

    private static List<String> strings(JsonObject problem, String member) {
        JsonArray array = problem.getJsonArray(member);
        assertNotNull(array, "no array " + member + " in " + problem);
        return array.getValuesAs(JsonString.class).stream().map(JsonString::getString).toList();
    }

    private HttpResponse<String> upload(String key, String... weights) {
        String[] headers = new String[2 + 2 * weights.length];
        headers[0] = "X-Api-Key";
        headers[1] = key;
        for (int i = 0; i < weights.length; i++) {
            headers[2 + 2 * i] = "X-Request-Weight";
            headers[3 + 2 * i] = weights[i];
        }
        return Http.post(base, "api/uploads", "data", headers);
    }

    /**
     * WildFly 39 and Quarkus have no MicroProfile Metrics: there Tollgate counts its decisions through OpenTelemetry
     * (MicroProfile Telemetry, Quarkus's OpenTelemetry extension) only, and TelemetryOtlpIT checks a rule's counts
     * (allowed, denied, shadow-denied, exactly) in what the server exports.
     */
    @Test
    @DisabledIfSystemProperty(named = "it.server", matches = "wildfly|quarkus",
            disabledReason = "no MicroProfile Metrics on WildFly 39 and Quarkus: the counts are checked through OTLP by TelemetryOtlpIT")
    void metricsCountEachRulesDecisionsByOutcome() {
        double allowed = metric("tollgate_decisions_total", "search", "outcome", "allowed");
        double denied = metric("tollgate_decisions_total", "search", "outcome", "denied");
        double timed = metric(TIMER_COUNT, "search", null, null);
        String key = freshKey();
        for (int i = 0; i < 5; i++) {
            get(base, "api/search?q=tea", "X-Api-Key", key);
        }
        assertEquals(allowed + 3, metric("tollgate_decisions_total", "search", "outcome", "allowed"));
        assertEquals(denied + 2, metric("tollgate_decisions_total", "search", "outcome", "denied"));
        assertEquals(timed + 5, metric(TIMER_COUNT, "search", null, null));
        assertEquals(0, metric("tollgate_decisions_total", "search", "outcome", "shadow-denied"));
        assertEquals(0, metric("tollgate_store_failures_total", "search", "cause", "timeout"));
        assertEquals(0, metric("tollgate_store_failures_total", "search", "cause", "error"));
        HttpResponse<String> metrics = get(base, "/metrics?scope=application", "Accept", "text/plain");
        double members = metrics.body().lines().filter(line -> line.startsWith("tollgate_cluster_members"))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).findFirst()
                .orElseThrow(() -> new AssertionError("no tollgate_cluster_members gauge in:\n" + metrics.body()));
        assertTrue(members >= 1, "the members of Tollgate's cluster: " + members);
    }

    @Test
    void theReadinessCheckReportsTheStore() {
        HttpResponse<String> ready = get(Deployments.healthBase(base), Deployments.readinessPath());
        assertEquals(200, ready.statusCode(), describe(ready));
        JsonObject check = json(ready).getJsonArray("checks").stream().map(JsonObject.class::cast)
                .filter(c -> c.getString("name").equals("tollgate")).findFirst()
                .orElseThrow(() -> new AssertionError("no tollgate check: " + ready.body()));
        assertEquals("UP", check.getString("status"), ready.body());
        assertEquals("hazelcast", check.getJsonObject("data").getString("store"), ready.body());
    }

    /** The timer's count: Open Liberty names it with its unit (seconds), Payara without. */
    private static final String TIMER_COUNT = "tollgate_decision_duration(_seconds)?_count";

    /**
     * @return the value of the application metric {@code name} (a regular expression) (Prometheus format, from /metrics)
     *         for {@code rule} and, if given, the tag {@code tag=value}
     */
    private double metric(String name, String rule, String tag, String value) {
        HttpResponse<String> metrics = get(base, "/metrics?scope=application", "Accept", "text/plain");
        assertEquals(200, metrics.statusCode(), describe(metrics));
        for (String line : metrics.body().split("\n")) {
            if (line.matches(name + "\\{.*") && line.contains("rule=\"" + rule + "\"")
                    && (tag == null || line.contains(tag + "=\"" + value + "\""))) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        throw new AssertionError("no " + name + " for rule " + rule + " " + tag + "=" + value + " in:\n"
                + String.join("\n", metrics.body().lines().filter(l -> l.contains("tollgate")).toList()));
    }
}
