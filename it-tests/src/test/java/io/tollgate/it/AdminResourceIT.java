package io.tollgate.it;

import static io.tollgate.it.Http.describe;
import static io.tollgate.it.Http.get;
import static io.tollgate.it.Http.header;
import static io.tollgate.it.Http.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.it.admin.OperatorIdentityStore;
import jakarta.json.JsonObject;
import java.net.URL;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Tollgate's admin resource on a real server, switched on with the role {@code tollgate-admin} and the WAR's own
 * authentication (Jakarta Security, HTTP Basic, {@link OperatorIdentityStore}; on Quarkus its embedded users): a caller outside the role is
 * refused, an operator empties nothing but resets a client's bucket, which answers 200 again.
 */
@ExtendWith(ArquillianExtension.class)
class AdminResourceIT {

    private static final String ROLES = "<security-role><role-name>tollgate-admin</role-name></security-role>"
            + "<security-role><role-name>users</role-name></security-role>";

    @Deployment(testable = false)
    static WebArchive deployment() {
        WebArchive war = Deployments.war("admin", Deployments.contractConfig(Map.ofEntries(Map.entry("tollgate.admin.enabled", "true"),
                        Map.entry("tollgate.admin.role", "tollgate-admin"),
                        // two rules of the same limits on one path: one is made stricter, the other is the control
                        Map.entry("tollgate.rules.fast.rate", "5/1s"), Map.entry("tollgate.rules.fast.burst", "5"),
                        Map.entry("tollgate.rules.fast.key", "header:X-Api-Key"), Map.entry("tollgate.rules.fast.paths", "/status"),
                        Map.entry("tollgate.rules.steady.rate", "5/1s"), Map.entry("tollgate.rules.steady.burst", "5"),
                        Map.entry("tollgate.rules.steady.key", "header:X-Api-Key"), Map.entry("tollgate.rules.steady.paths", "/status"))))
                .addAsWebInfResource(new StringAsset("<web-app xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"6.0\">"
                        + ROLES + "</web-app>"), "web.xml")
                .addAsWebInfResource(new StringAsset("<payara-web-app><security-role-mapping><role-name>tollgate-admin</role-name>"
                        + "<group-name>tollgate-admin</group-name></security-role-mapping><security-role-mapping>"
                        + "<role-name>users</role-name><group-name>users</group-name></security-role-mapping></payara-web-app>"),
                        "payara-web.xml");
        // Quarkus has no Jakarta Security: there the same users are the application's embedded ones (HTTP Basic,
        // servers/quarkus-app's application.properties)
        return Deployments.isQuarkus() ? war : war.addClass(OperatorIdentityStore.class);
    }

    @ArquillianResource
    URL base;

    private HttpResponse<String> admin(String path, String user, String key) {
        HttpRequest.Builder request = Http.request(base, "api/tollgate/admin/" + path, "Authorization", "Basic "
                + Base64.getEncoder().encodeToString((user + ":" + user + "-secret").getBytes(StandardCharsets.UTF_8)));
        return Http.send(key == null ? request.GET() : request.header("Content-Type", "text/plain; charset=UTF-8")
                .header("X-Requested-By", user).POST(HttpRequest.BodyPublishers.ofString(key)));
    }

    /**
     * A stricter limit keeps a drained bucket past the time-to-live its last write gave it (3 s: refilled in 1 s, plus
     * 2 s): the test waits until the control, a bucket of the same limits drained at the same moment and not changed,
     * is gone from the store, then the changed rule's bucket is still there, and still denies.
     */
    @Test
    void aStricterLimitKeepsADrainedBucketPastItsOldLifetime() throws InterruptedException {
        String key = "stricter-" + UUID.randomUUID();
        drain("api/status", key); // both rules
        try {
            HttpResponse<String> changed = Http.send(Http.request(base, "api/operator/rules/fast", "Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"rate\": \"1/1h\"}")));
            assertEquals(200, changed.statusCode(), describe(changed));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (json(admin("rules/steady/inspect", "ops", key)).getBoolean("found")) {
                assertTrue(System.nanoTime() < deadline, "the control bucket is still stored after 60 s");
                TimeUnit.MILLISECONDS.sleep(200);
            }
            HttpResponse<String> kept = admin("rules/fast/inspect", "ops", key);
            assertTrue(json(kept).getBoolean("found"), "the changed rule's bucket is kept: " + kept.body());
            HttpResponse<String> denied = get(base, "api/status", "X-Api-Key", key);
            assertEquals(429, denied.statusCode(), "seconds at 1/h refill nothing: " + describe(denied));
        } finally {
            Http.send(Http.request(base, "api/operator/rules/fast").DELETE());
        }
    }

    private void drain(String path, String key) {
        for (int i = 0; i < 100; i++) {
            if (get(base, path, "X-Api-Key", key).statusCode() == 429) {
                return;
            }
        }
        throw new AssertionError(path + " was not denied in 100 requests");
    }

    /** A composite key named as the README writes it: the API key and the path within the application, joined by ','. */
    @Test
    void anOperatorNamesACompositeKeyByItsParts() {
        String apiKey = "k-" + UUID.randomUUID();
        for (int i = 0; i < 2; i++) { // articles: burst 2, one token an hour, key=header:X-Api-Key, path
            HttpResponse<String> ok = get(base, "api/articles/42", "X-Api-Key", apiKey);
            assertEquals(200, ok.statusCode(), describe(ok));
        }
        HttpResponse<String> denied = get(base, "api/articles/42", "X-Api-Key", apiKey);
        assertEquals(429, denied.statusCode(), describe(denied));

        HttpResponse<String> inspected = admin("rules/articles/inspect", "ops", apiKey + ",/articles/42");
        assertEquals(200, inspected.statusCode(), describe(inspected));
        assertTrue(json(inspected).getBoolean("found"), inspected.body());
        assertEquals(0, json(inspected).getJsonArray("limits").getJsonObject(0).getInt("remaining"), inspected.body());
        HttpResponse<String> elsewhere = admin("rules/articles/reset", "ops", apiKey + "/articles/42");
        assertFalse(json(elsewhere).getBoolean("found"), "a key no request has: " + elsewhere.body());
        HttpResponse<String> reset = admin("rules/articles/reset", "ops", apiKey + ",/articles/42");
        assertEquals(200, reset.statusCode(), describe(reset));
        assertTrue(json(reset).getBoolean("found"), reset.body());
        HttpResponse<String> again = get(base, "api/articles/42", "X-Api-Key", apiKey);
        assertEquals(200, again.statusCode(), describe(again));
    }

    /** What a page on another site could make an operator's browser send with their credentials: refused, nothing changed. */
    @Test
    void aPostWithoutTheRequestedByHeaderIsRefusedAndChangesNothing() {
        String key = "forged/" + UUID.randomUUID();
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> ok = get(base, "api/search?q=tea", "X-Api-Key", key);
            assertEquals(200, ok.statusCode(), describe(ok));
        }
        HttpResponse<String> forged = Http.send(Http.request(base, "api/tollgate/admin/rules/search/reset", "Authorization", "Basic "
                + Base64.getEncoder().encodeToString("ops:ops-secret".getBytes(StandardCharsets.UTF_8)), "Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString(key)));
        assertEquals(400, forged.statusCode(), describe(forged));
        assertEquals("application/problem+json", header(forged, "Content-Type").split(";")[0], describe(forged));
        assertTrue(json(forged).getString("detail").contains("X-Requested-By"), describe(forged));
        HttpResponse<String> denied = get(base, "api/search?q=tea", "X-Api-Key", key);
        assertEquals(429, denied.statusCode(), "the bucket was not reset: " + describe(denied));
    }

    @Test
    void refusesCallersOutsideTheRole() {
        HttpResponse<String> anonymous = get(base, "api/tollgate/admin/rules");
        assertEquals(401, anonymous.statusCode(), describe(anonymous));
        HttpResponse<String> user = admin("rules/search/reset", "user", "some-key");
        assertEquals(403, user.statusCode(), describe(user));
        assertEquals("application/problem+json", header(user, "Content-Type").split(";")[0], describe(user));
        assertEquals(403, json(user).getInt("status"), describe(user));
    }

    @Test
    void anOperatorResetsAnEmptiedKey() {
        String key = "key/" + UUID.randomUUID(); // a slash, which the body carries as it is
        for (int i = 0; i < 3; i++) { // search: burst 3, one token an hour
            HttpResponse<String> ok = get(base, "api/search?q=tea", "X-Api-Key", key);
            assertEquals(200, ok.statusCode(), describe(ok));
        }
        HttpResponse<String> denied = get(base, "api/search?q=tea", "X-Api-Key", key);
        assertEquals(429, denied.statusCode(), describe(denied));

        HttpResponse<String> inspected = admin("rules/search/inspect", "ops", key);
        assertEquals(200, inspected.statusCode(), describe(inspected));
        JsonObject bucket = json(inspected);
        assertEquals(0, bucket.getJsonArray("limits").getJsonObject(0).getInt("remaining"), bucket.toString());
        assertFalse(inspected.body().contains(key), "the answer names the key by its hash only");

        HttpResponse<String> reset = admin("rules/search/reset", "ops", key);
        assertEquals(200, reset.statusCode(), describe(reset));
        assertTrue(json(reset).getBoolean("full"), reset.body());
        HttpResponse<String> again = get(base, "api/search?q=tea", "X-Api-Key", key);
        assertEquals(200, again.statusCode(), describe(again));

        HttpResponse<String> rules = admin("rules", "ops", null);
        assertEquals(200, rules.statusCode(), describe(rules));
        assertTrue(rules.body().contains("\"name\":\"search\""), rules.body());
    }
}
