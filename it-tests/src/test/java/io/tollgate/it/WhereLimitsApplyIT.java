package io.tollgate.it;

import static io.tollgate.it.Http.contentType;
import static io.tollgate.it.Http.describe;
import static io.tollgate.it.Http.get;
import static io.tollgate.it.Http.header;
import static io.tollgate.it.Http.json;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.net.URL;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Limits apply wherever a user puts them (README "Where limits apply"), on the real server: path rules
 * and {@code key=path} on the path as JAX-RS routes it, however the client spells it; a sub-resource
 * locator under a path rule; resources declared on interfaces as OpenAPI generators write them, and one that
 * is not a CDI bean, each charged once per request, and a service with the method and rule of the resource that
 * calls it charged too; a CDI service called from a plain servlet, keyed and
 * matched on the servlet request; a stateless session bean whose denial is a 429 and not an error in the
 * server's log. Rules of configs/contract.properties: refill per hour, a fresh X-Api-Key (or client
 * address) per test.
 */
@ExtendWith(ArquillianExtension.class)
class WhereLimitsApplyIT {

    /** Why the cases of a plain servlet do not run on Quarkus. */
    private static final String SERVLETS_ON_QUARKUS = "the Quarkus application serves Quarkus REST, not servlets (no Undertow)";

    private static final long HOUR = 3600;
    private static final String PROBLEM_JSON = "application/problem+json";
    /** A frame of a stack trace, as both servers log them. */
    private static final Pattern STACK_FRAME = Pattern.compile("^\\s+at \\S+\\(");

    /** {@code GET /api/items/7} spelled the ways a server routes to the same method. */
    private static final List<String> ITEM_7 = List.of(
            "api/items/7;m=1", "api/items;m=1/7", "api;m=1/items/7", "api/items;m=1/7;n=2", "api/items/7;",
            "api/items/7/", "api/items//7", "api//items/7", "api/%69tems/7", "api/items/%37", "api/%69tems/%37",
            "api/items/./7", "api/items/x/../7");

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.contractWithEjb("where");
    }

    @ArquillianResource
    URL base;

    private static String freshKey() {
        return "key-" + UUID.randomUUID();
    }

    // ---------------------------------------------------------------- the path as JAX-RS routes it

    @Test
    void aPathRuleIsNotDodgedByAnotherSpellingOfThePath() {
        String key = freshKey();
        for (int i = 0; i < 2; i++) {
            HttpResponse<String> ok = get(base, "api/items/7", "X-Api-Key", key);
            assertEquals(200, ok.statusCode(), describe(ok));
        }
        HttpResponse<String> denied = get(base, "api/items/7", "X-Api-Key", key);
        assertEquals(429, denied.statusCode(), describe(denied));

        // the bucket is empty: no spelling of the path gets a 200 (a server may also refuse one: 400, 404)
        List<String> spellings = new ArrayList<>(ITEM_7);
        spellings.add("api/items/a%2Fb"); // an encoded slash: item "a/b", one segment (Liberty answers 400)
        List<String> report = new ArrayList<>();
        List<String> passed = new ArrayList<>();
        for (String spelling : spellings) {
            RawHttp.Response fresh = RawHttp.get(base, spelling, "X-Api-Key", freshKey());
            RawHttp.Response spent = RawHttp.get(base, spelling, "X-Api-Key", key);
            report.add(String.format("  %-24s fresh key %d, spent key %d", spelling, fresh.status(), spent.status()));
            if (spent.status() == 200) {
                passed.add(spent.describe());
            }
        }
        System.out.println("[it] " + Deployments.SERVER + ": rule items (paths=/items/*), GET " + base.getPath()
                + "...:\n" + String.join("\n", report));
        assertEquals(List.of(), passed, "200s with the bucket empty:");
    }

    @Test
    void withKeyPathEverySpellingOfAnItemSharesItsBucket() {
        String key = freshKey();
        List<String> spellings = List.of("api/articles/42", "api/articles/42;n=1", "api/articles/42;n=2",
                "api/articles/42;", "api/articles/42/", "api/articles//42", "api//articles/42", "api/%61rticles/42",
                "api/articles/%34%32", "api/articles;m=1/42", "api/articles/./42", "api/articles/x/../42");
        List<Integer> statuses = new ArrayList<>();
        List<String> report = new ArrayList<>();
        for (String spelling : spellings) {
            RawHttp.Response response = RawHttp.get(base, spelling, "X-Api-Key", key);
            statuses.add(response.status());
            report.add(String.format("  %-24s %d %s", spelling, response.status(), response.header("RateLimit")));
        }
        System.out.println("[it] " + Deployments.SERVER + ": rule articles (key=header:X-Api-Key, path), one key:\n"
                + String.join("\n", report));
        assertEquals(List.of(200, 200), statuses.subList(0, 2), "the burst of 2:\n" + String.join("\n", report));
        assertEquals(2, Collections.frequency(statuses, 200), "one bucket for article 42, burst 2:\n" + String.join("\n", report));

        HttpResponse<String> other = get(base, "api/articles/43", "X-Api-Key", key);
        assertEquals(200, other.statusCode(), "article 43 has its own bucket: " + describe(other));
        assertEquals(1, remaining(other, "articles"), describe(other));
    }

    @Test
    void aSubResourceLocatorIsLimitedByThePathRuleThatCoversIt() {
        String key = freshKey();
        for (int i = 1; i <= 2; i++) {
            HttpResponse<String> ok = get(base, "api/orders/7/lines", "X-Api-Key", key);
            assertEquals(200, ok.statusCode(), describe(ok));
            assertEquals("lines of order 7", ok.body());
            assertEquals(2 - i, remaining(ok, "orders"), describe(ok));
        }
        HttpResponse<String> denied = get(base, "api/orders/7/lines", "X-Api-Key", key);
        assertEquals(429, denied.statusCode(), describe(denied));
        assertEquals("orders", json(denied).getString("rule"), denied.body());
        RawHttp.Response matrix = RawHttp.get(base, "api/orders;m=1/7/lines", "X-Api-Key", key);
        assertTrue(matrix.status() != 200, "bucket empty: " + matrix.describe());
    }

    // ---------------------------------------------------------------- resources as users write them

    @Test
    void aRuleOnTheImplementationMethodOfAGeneratedInterface() {
        assertChargedOncePerRequest("api/products/1", "products", "product 1");
    }

    @Test
    void aRuleOnTheMethodOfAGeneratedInterface() {
        assertChargedOncePerRequest("api/reviews/1", "reviews", "review 1");
    }

    @Test
    void aRuleOnTheImplementationClassOfAGeneratedInterface() {
        assertChargedOncePerRequest("api/stores/1", "stores", "store 1");
    }

    @Test
    void aResourceThatIsNotACdiBean() {
        assertChargedOncePerRequest("api/plain/1", "plain", "plain 1");
    }

    /** Burst 4: the resource and the service it calls, each limited by the rule, take 2 tokens a request. */
    @Test
    void aServiceWithTheMethodAndRuleOfTheResourceThatCallsItIsChargedToo() {
        String key = freshKey();
        for (int i = 1; i <= 2; i++) {
            HttpResponse<String> ok = get(base, "api/lookups?q=tea", "X-Api-Key", key);
            assertEquals(200, ok.statusCode(), "request " + i + ": " + describe(ok));
            assertEquals("found tea", ok.body());
            assertEquals(4 - 2 * i, remaining(ok, "lookups"), "tokens left after request " + i + ": " + describe(ok));
        }
        HttpResponse<String> denied = get(base, "api/lookups?q=tea", "X-Api-Key", key);
        assertEquals(429, denied.statusCode(), "request 3: " + describe(denied));
        assertEquals("lookups", json(denied).getString("rule"), denied.body());
    }

    /** Burst 3: three 200s with 2, 1, 0 tokens left (one token per request), then a 429 of that rule. */
    private void assertChargedOncePerRequest(String path, String rule, String body) {
        String key = freshKey();
        for (int i = 1; i <= 3; i++) {
            HttpResponse<String> ok = get(base, path, "X-Api-Key", key);
            assertEquals(200, ok.statusCode(), "request " + i + ": " + describe(ok));
            assertEquals(body, ok.body());
            assertEquals(3 - i, remaining(ok, rule), "tokens left after request " + i + ": " + describe(ok));
        }
        HttpResponse<String> denied = get(base, path, "X-Api-Key", key);
        assertEquals(429, denied.statusCode(), describe(denied));
        assertEquals(rule, json(denied).getString("rule"), denied.body());
    }

    // ---------------------------------------------------------------- a service called from a servlet

    @Test
    @DisabledIfSystemProperty(named = "it.server", matches = "quarkus", disabledReason = SERVLETS_ON_QUARKUS)
    void servletCallersHaveABucketPerClientAddress() {
        int n = ThreadLocalRandom.current().nextInt(1, 254);
        String a = "203.0.113." + n;
        String b = "203.0.113." + (n + 1);
        Bucket bucket = new Bucket();
        for (int i = 1; i <= 2; i++) {
            HttpResponse<String> ok = get(base, "quotes", "X-Forwarded-For", a);
            assertEquals(200, ok.statusCode(), "client " + a + ", call " + i + ": " + describe(ok));
            assertEquals("a quote", ok.body());
        }
        HttpResponse<String> denied = get(base, "quotes", "X-Forwarded-For", a);
        assertEquals(429, denied.statusCode(), "client " + a + ", call 3: " + describe(denied));
        assertEquals("slow down: quotes", denied.body());
        bucket.assertRetryAfter(denied, HOUR);

        for (int i = 1; i <= 2; i++) {
            HttpResponse<String> ok = get(base, "quotes", "X-Forwarded-For", b);
            assertEquals(200, ok.statusCode(), "client " + b + " has its own bucket, call " + i + ": " + describe(ok));
        }
        assertEquals(429, get(base, "quotes", "X-Forwarded-For", b).statusCode(), "client " + b + ", call 3");
    }

    @Test
    @DisabledIfSystemProperty(named = "it.server", matches = "quarkus", disabledReason = SERVLETS_ON_QUARKUS)
    void aTierRuleHoldsForServletCalls() {
        String key = freshKey();
        for (int i = 1; i <= 2; i++) {
            HttpResponse<String> ok = get(base, "quotes/gold", "X-Api-Key", key, "X-Tier", "gold");
            assertEquals(200, ok.statusCode(), describe(ok));
            assertEquals("a gold quote", ok.body());
        }
        HttpResponse<String> denied = get(base, "quotes/gold", "X-Api-Key", key, "X-Tier", "gold");
        assertEquals(429, denied.statusCode(), "X-Tier: gold, call 3: " + describe(denied));
        assertEquals("slow down: gold-quotes", denied.body());

        for (int i = 1; i <= 5; i++) { // another tier: the rule does not apply
            HttpResponse<String> ok = get(base, "quotes/gold", "X-Api-Key", key, "X-Tier", "silver");
            assertEquals(200, ok.statusCode(), "X-Tier: silver, call " + i + ": " + describe(ok));
        }
    }

    @Test
    @DisabledIfSystemProperty(named = "it.server", matches = "quarkus", disabledReason = SERVLETS_ON_QUARKUS)
    void keyPathOfAServletCallIsTheServletPath() {
        String key = freshKey();
        for (int i = 1; i <= 2; i++) {
            HttpResponse<String> ok = get(base, "quotes/topics/tea", "X-Api-Key", key);
            assertEquals(200, ok.statusCode(), describe(ok));
            assertEquals("a quote on tea", ok.body());
        }
        HttpResponse<String> denied = get(base, "quotes/topics/tea", "X-Api-Key", key);
        assertEquals(429, denied.statusCode(), "tea, call 3: " + describe(denied));

        HttpResponse<String> coffee = get(base, "quotes/topics/coffee", "X-Api-Key", key);
        assertEquals(200, coffee.statusCode(), "/quotes/topics/coffee has its own bucket: " + describe(coffee));
    }

    // ---------------------------------------------------------------- an EJB

    @Test
    @DisabledIfSystemProperty(named = "it.server", matches = "quarkus", disabledReason = "Quarkus has no session beans (EJB)")
    void aDenialOnAnEjbIsA429AndNoErrorInTheServerLog() throws InterruptedException {
        ServerLog log = ServerLog.ofNodeA();
        String key = freshKey();
        List<Integer> statuses = new ArrayList<>();
        List<String> badDenials = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            HttpResponse<String> response = get(base, "api/ledger", "X-Api-Key", key);
            statuses.add(response.statusCode());
            if (i > 0 && badDenials.size() < 3 && !isProblemOfRule(response, "ledger")) {
                badDenials.add(describe(response));
            }
        }
        String mark = "[it] ledger calls done " + UUID.randomUUID();
        String logged = log.awaitSinceMark(mark, () -> get(base, "api/ledger/mark?text=" + mark.replace(' ', '+')));
        List<String> errorLines = logged.lines()
                .filter(l -> l.contains("CNTR0020E") || l.contains("RateLimitExceededException") || STACK_FRAME.matcher(l).find())
                .toList();
        long incidents = log.newIncidents();
        System.out.println("[it] " + Deployments.SERVER + ": 20 calls of a @RateLimited EJB method (burst 1): " + statuses
                + "; " + errorLines.size() + " log lines about them in " + log + ", " + incidents + " new FFDC incidents");

        List<Integer> expected = new ArrayList<>(Collections.nCopies(20, 429));
        expected.set(0, 200);
        assertAll(
                () -> assertEquals(expected, statuses, "1 x 200, then 19 x 429"),
                () -> assertEquals(List.of(), badDenials, "429s with the problem body of the rule 'ledger'"),
                () -> assertEquals(List.of(), errorLines.subList(0, Math.min(12, errorLines.size())),
                        errorLines.size() + " lines of the server log about the denials (the first 12)"),
                () -> assertEquals(0, incidents, "new FFDC incidents"));
    }

    private static boolean isProblemOfRule(HttpResponse<String> response, String rule) {
        if (response.statusCode() != 429 || !PROBLEM_JSON.equals(contentType(response).orElse(null))) {
            return false;
        }
        try {
            JsonObject problem = json(response);
            return rule.equals(problem.getString("rule", null)) && problem.getInt("status", 0) == 429;
        } catch (AssertionError notJson) {
            return false;
        }
    }

    /** @return {@code r} of the rule's item in the {@code RateLimit} header: the whole tokens left */
    private static long remaining(HttpResponse<String> response, String rule) {
        String value = header(response, "RateLimit");
        assertNotNull(value, "no RateLimit header: " + describe(response));
        Matcher m = Pattern.compile("\"" + Pattern.quote(rule) + "\";r=(\\d+)").matcher(value);
        assertTrue(m.find(), "no item for " + rule + " in RateLimit: " + describe(response));
        return Long.parseLong(m.group(1));
    }
}
