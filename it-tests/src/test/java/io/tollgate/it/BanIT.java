package io.tollgate.it;

import static io.tollgate.it.Http.describe;
import static io.tollgate.it.Http.header;
import static io.tollgate.it.Http.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import jakarta.json.JsonObject;
import java.net.URL;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.container.test.api.TargetsContainer;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A ban started on one instance is answered by the other: the rule {@code logins} of the contract rules (burst 1,
 * refill per hour, a ban of an hour after 2 denials, answered 403) on two instances that share their buckets. Two
 * 429s on node-a ban the key; node-b then answers it 403 with the time left as Retry-After and the ban's problem
 * body, as soon as the ban reaches it (polled, within 60 s).
 */
@ExtendWith(ArquillianExtension.class)
class BanIT {

    private static final long FORMATION_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final long PROPAGATION_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(60);

    /** The contract rules, with {@code reports} (the probe of {@link SharedBuckets}) at a burst of 1. */
    private static WebArchive war() {
        return Deployments.war("bans", Deployments.contractConfig(Map.ofEntries(Map.entry("tollgate.rules.reports.burst", "1"),
                // GET /api/status: a ban of 2 s after 2 denials an hour, so that a test sees one end
                Map.entry("tollgate.rules.rebans.rate", "1/1h"), Map.entry("tollgate.rules.rebans.burst", "1"),
                Map.entry("tollgate.rules.rebans.key", "header:X-Api-Key"), Map.entry("tollgate.rules.rebans.paths", "/status"),
                Map.entry("tollgate.rules.rebans.ban-after", "2/1h"), Map.entry("tollgate.rules.rebans.ban-for", "2s"),
                Map.entry("tollgate.rules.rebans.ban-status", "403"))));
    }

    @Deployment(name = "a", order = 1, testable = false)
    @TargetsContainer("node-a")
    static WebArchive a() {
        return war();
    }

    @Deployment(name = "b", order = 2, testable = false)
    @TargetsContainer("node-b")
    static WebArchive b() {
        return war();
    }

    @ArquillianResource
    @OperateOnDeployment("a")
    URL a;

    @ArquillianResource
    @OperateOnDeployment("b")
    URL b;

    @Test
    void aBanStartedOnOneInstanceIsAnsweredByTheOther() throws Exception {
        SharedBuckets.await(a, b, FORMATION_TIMEOUT_NANOS);
        String key = "banned-" + UUID.randomUUID();
        assertEquals(200, login(a, key).statusCode(), "the key's one token");
        assertEquals(429, login(a, key).statusCode(), "the first denial");
        assertEquals(429, login(a, key).statusCode(), "the second denial, which starts the ban");

        HttpResponse<String> onB = login(b, key);
        long start = System.nanoTime();
        while (onB.statusCode() != 403) {
            if (System.nanoTime() - start > PROPAGATION_TIMEOUT_NANOS) {
                fail("node-b does not answer the ban after 60 s: " + describe(onB));
            }
            assertEquals(429, onB.statusCode(), "until the ban arrives, node-b's bucket denies: " + describe(onB));
            Thread.sleep(100);
            onB = login(b, key);
        }
        System.out.println("[it] " + Deployments.SERVER + ": the ban started on node-a is answered by node-b after "
                + (System.nanoTime() - start) / 1_000_000 + " ms");
        assertBanned(onB);
        assertBanned(login(a, key));
        assertEquals(200, login(b, "other-" + key).statusCode(), "another key");
    }

    /**
     * A key still denied when its ban ends, its count not refilled (2 an hour), is banned again at its next denial,
     * whichever instance answers it: node-b answers the ban node-a started, then, once it is over there, one 429 (the
     * denial that bans again) and 403 again.
     */
    @Test
    void aKeyStillDeniedWhenItsBanEndsIsBannedAgainAtItsNextDenial() throws Exception {
        SharedBuckets.await(a, b, FORMATION_TIMEOUT_NANOS);
        String key = "rebanned-" + UUID.randomUUID();
        assertEquals(200, status(a, key).statusCode(), "the key's one token");
        assertEquals(429, status(a, key).statusCode(), "the first denial");
        assertEquals(429, status(a, key).statusCode(), "the second denial, which starts the ban");
        HttpResponse<String> onB = awaitStatus(b, key, status -> status == 403, "the ban started on node-a");
        assertEquals("rebans", json(onB).getString("rule"), describe(onB));
        HttpResponse<String> after = awaitStatus(b, key, status -> status != 403, "the end of the ban");
        assertEquals(429, after.statusCode(), "the first answer after the ban is a denial: " + describe(after));
        HttpResponse<String> again = status(b, key);
        assertEquals(403, again.statusCode(), "that denial banned the key again: " + describe(again));
    }

    private static HttpResponse<String> status(URL node, String key) {
        return Http.get(node, "api/status", "X-Api-Key", key);
    }

    /** Asks {@code node} every 50 ms, at most 60 s, until its answer's status is {@code wanted}'s. */
    private static HttpResponse<String> awaitStatus(URL node, String key, IntPredicate wanted, String what)
            throws InterruptedException {
        long start = System.nanoTime();
        HttpResponse<String> response = status(node, key);
        while (!wanted.test(response.statusCode())) {
            if (System.nanoTime() - start > PROPAGATION_TIMEOUT_NANOS) {
                fail(what + ": not seen after 60 s: " + describe(response));
            }
            Thread.sleep(50);
            response = status(node, key);
        }
        return response;
    }

    private static HttpResponse<String> login(URL node, String key) {
        return Http.post(node, "api/sessions", "", "X-Api-Key", key);
    }

    private static void assertBanned(HttpResponse<String> response) {
        assertEquals(403, response.statusCode(), describe(response));
        long retryAfter = Long.parseLong(header(response, "Retry-After"));
        assertTrue(retryAfter > 3500 && retryAfter <= 3600, "Retry-After is the time left of the hour: " + retryAfter);
        assertTrue(header(response, "Content-Type").startsWith("application/problem+json"), header(response, "Content-Type"));
        assertNull(header(response, "RateLimit"), "a ban is no bucket's state");
        JsonObject body = json(response);
        assertEquals("urn:tollgate:problem:banned", body.getString("type"));
        assertEquals("Temporarily Banned", body.getString("title"));
        assertEquals(403, body.getInt("status"));
        assertEquals("logins", body.getString("rule"));
        assertEquals(retryAfter, body.getJsonNumber("retryAfter").longValue());
    }
}
