package io.tollgate.it;

import static io.tollgate.it.Http.describe;
import static io.tollgate.it.Http.header;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import jakarta.json.JsonObject;
import java.net.URL;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.container.test.api.TargetsContainer;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A limit changed at runtime takes effect on both instances of a two-instance cluster without a restart (Payara: two
 * Payara Micro processes in one Data Grid; Liberty: two servers whose embedded members form one cluster). Changes go
 * through the sample's operator resource ({@code RuleOperations}) on node-a and are seen on node-b. The rule is the
 * contract's {@code search} (1/1h burst 3, per {@code X-Api-Key}: no count depends on time), in a WAR with a bucket
 * map of its own, so its changes ({@code <map>-rules}) reach no other test's WAR; every change is reverted at the end.
 * On Open Liberty, a change of the configuration itself (a server variable) is read again by both servers
 * ({@code tollgate.config.refresh} is 1 s in this WAR).
 */
@ExtendWith(ArquillianExtension.class)
class LiveLimitsIT {

    private static final long FORMATION_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final long PROPAGATION_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);
    private static final String CONFIGURED_POLICY = "\"search\";q=1;w=3600";
    private static final String CHANGED_POLICY = "\"search\";q=2;w=3600";

    private static WebArchive war() {
        return Deployments.war("live-limits", Deployments.contractConfig(Map.of(
                "tollgate.hazelcast.map", "live-limits-buckets",
                "tollgate.rules.reports.burst", "1", // SharedBuckets' probe
                "tollgate.store.timeout", "5s",
                "tollgate.config.refresh", "1s")));
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
    void aLimitChangedOnOneInstanceTakesEffectOnBothWithoutARestart() throws Exception {
        SharedBuckets.await(a, b, FORMATION_TIMEOUT_NANOS);
        try {
            // as configured: a key gets exactly the burst of 3 on node-b
            String emptied = key("configured");
            assertGrants(3, emptied, b);
            JsonObject configured = json(200, Http.get(a, "api/operator/rules/search"));
            assertEquals("1/1h burst 3", configured.getString("limits"), configured.toString());

            // changed on node-a: node-a answers with the new values at once, node-b shows them within moments
            JsonObject changed = json(200, send(a, "POST", "api/operator/rules/search", "application/json",
                    "{\"rate\": \"2/1h\", \"burst\": \"5\"}"));
            assertEquals("2/1h burst 5", changed.getString("limits"), changed.toString());
            awaitFreshKey(b, CHANGED_POLICY, 4);
            assertEquals(changed, json(200, Http.get(b, "api/operator/rules/search")));

            // both follow the new limit: a new key gets exactly the new burst across the two, and the key emptied
            // before the change stays empty (a larger burst is not a refill)
            assertGrants(5, key("changed"), a, b);
            for (URL node : new URL[] {a, b}) {
                assertEquals(429, search(node, emptied).statusCode(), "emptied before the change, on " + node);
            }

            // an override for one key, made on node-a, applies to that key on node-b
            String contract = key("contract");
            JsonObject overridden = json(200, send(a, "PUT", "api/operator/rules/search/overrides/" + contract, "text/plain",
                    "2/1h burst 7"));
            assertEquals(contract + "=2/1h burst 7", overridden.getString("overrides"), overridden.toString());
            awaitOnB("the override of " + contract, current -> current.equals(overridden));
            assertGrants(7, contract, b, a);
            assertGrants(5, key("no-override"), b, a);

            // a bad change is refused with the deployment's message and changes nothing on either instance
            HttpResponse<String> bad = send(a, "POST", "api/operator/rules/search", "application/json", "{\"rate\": \"ten\"}");
            String error = json(400, bad).getString("error");
            assertTrue(error.contains("tollgate.rules.search.rate = 'ten': not a rate"), describe(bad));
            for (URL node : new URL[] {a, b}) {
                assertEquals(overridden, json(200, Http.get(node, "api/operator/rules/search")), "after the refusal, on " + node);
            }
            assertGrants(5, key("after-refusal"), a, b);

            // reverted on node-a: the configured limit again on both, the override gone with it
            JsonObject reverted = json(200, send(a, "DELETE", "api/operator/rules/search", null, null));
            assertEquals(configured, reverted);
            awaitFreshKey(b, CONFIGURED_POLICY, 2);
            awaitOnB("the revert", current -> current.equals(configured));
            assertGrants(3, key("reverted"), a, b);
        } finally {
            send(a, "DELETE", "api/operator/rules/search", null, null);
        }
    }

    /**
     * Open Liberty only: a server variable is a configuration source Liberty reads again when its configuration changes
     * (it polls its files every 500 ms by default), so a {@code <variable>} in a {@code configDropins/overrides} file of
     * each server changes {@code products}' burst on both at the next {@code tollgate.config.refresh} (1 s in this WAR);
     * removing the file brings the configured burst back. Payara Micro has no such source a test can change from outside
     * the server's JVM (its {@code set-config-property} is an admin command).
     */
    @Test
    @EnabledIfSystemProperty(named = "it.server", matches = "liberty")
    void aChangedServerVariableIsReadAgainOnBothServers() throws Exception {
        SharedBuckets.await(a, b, FORMATION_TIMEOUT_NANOS);
        List<Path> files = List.of(overrides("node-a"), overrides("node-b"));
        try {
            for (Path file : files) {
                Files.writeString(file, "<server>\n  <variable name=\"tollgate.rules.products.burst\" value=\"6\"/>\n</server>\n");
            }
            for (URL node : new URL[] {a, b}) {
                awaitFreshProducts(node, 5);
            }
            assertProducts(6, key("variable"), a, b);
        } finally {
            for (Path file : files) {
                Files.deleteIfExists(file);
            }
        }
        for (URL node : new URL[] {a, b}) { // the next test's WAR finds the servers as they were
            awaitFreshProducts(node, 2);
        }
        assertProducts(3, key("variable-removed"), b, a);
    }

    private static Path overrides(String server) {
        return Path.of(System.getProperty("liberty.wlp"), "usr", "servers", server, "configDropins", "overrides",
                "live-limits-it.xml");
    }

    /** Waits until a fresh key's first request for a product on {@code node} leaves {@code remaining} tokens. */
    private static void awaitFreshProducts(URL node, int remaining) throws InterruptedException {
        long start = System.nanoTime();
        String expected = "\"products\";r=" + remaining;
        while (true) {
            HttpResponse<String> response = Http.get(node, "api/products/1", "X-Api-Key", key("probe"));
            String rateLimit = header(response, "RateLimit");
            if (response.statusCode() == 200 && rateLimit != null && rateLimit.startsWith(expected + ";")) {
                System.out.println("[it] " + Deployments.SERVER + ": " + node + " shows " + expected + " after "
                        + (System.nanoTime() - start) / 1_000_000 + " ms");
                return;
            }
            if (System.nanoTime() - start > PROPAGATION_TIMEOUT_NANOS) {
                fail("after 30 s, " + node + " still does not show " + expected + ": " + describe(response));
            }
            Thread.sleep(100);
        }
    }

    /** Alternating over {@code nodes}, a key gets exactly {@code burst} products, then a 429 on each node. */
    private static void assertProducts(int burst, String key, URL... nodes) {
        for (int i = 0; i < burst; i++) {
            HttpResponse<String> response = Http.get(nodes[i % nodes.length], "api/products/1", "X-Api-Key", key);
            assertEquals(200, response.statusCode(), "request " + (i + 1) + " of a burst of " + burst + ": " + describe(response));
        }
        for (URL node : nodes) {
            HttpResponse<String> denied = Http.get(node, "api/products/1", "X-Api-Key", key);
            assertEquals(429, denied.statusCode(), "after a burst of " + burst + ": " + describe(denied));
        }
    }

    /** Alternating over {@code nodes} from the first, a key gets exactly {@code burst} 200s, then a 429 on each node. */
    private static void assertGrants(int burst, String key, URL... nodes) {
        for (int i = 0; i < burst; i++) {
            HttpResponse<String> response = search(nodes[i % nodes.length], key);
            assertEquals(200, response.statusCode(), "request " + (i + 1) + " of a burst of " + burst + ": " + describe(response));
            assertEquals("\"search\";r=" + (burst - 1 - i), header(response, "RateLimit").split(";t=")[0], describe(response));
        }
        for (URL node : nodes) {
            HttpResponse<String> denied = search(node, key);
            assertEquals(429, denied.statusCode(), "after a burst of " + burst + ": " + describe(denied));
        }
    }

    /** Waits until a fresh key's first request on {@code node} shows the policy and {@code remaining} tokens left. */
    private static void awaitFreshKey(URL node, String policy, int remaining) throws InterruptedException {
        long start = System.nanoTime();
        String expected = policy + " and \"search\";r=" + remaining;
        while (true) {
            HttpResponse<String> response = search(node, key("probe"));
            String rateLimit = header(response, "RateLimit");
            String seen = header(response, "RateLimit-Policy") + " and " + (rateLimit == null ? null : rateLimit.split(";t=")[0]);
            if (response.statusCode() == 200 && seen.equals(expected)) {
                System.out.println("[it] " + Deployments.SERVER + ": " + node + " shows " + expected + " after "
                        + (System.nanoTime() - start) / 1_000_000 + " ms");
                return;
            }
            if (System.nanoTime() - start > PROPAGATION_TIMEOUT_NANOS) {
                fail("after 30 s, " + node + " still does not show " + expected + ": " + describe(response));
            }
            Thread.sleep(100);
        }
    }

    /** Waits until node-b's live values of {@code search} satisfy {@code condition}. */
    private void awaitOnB(String what, Predicate<JsonObject> condition) throws InterruptedException {
        long start = System.nanoTime();
        JsonObject current;
        while (!condition.test(current = json(200, Http.get(b, "api/operator/rules/search")))) {
            if (System.nanoTime() - start > PROPAGATION_TIMEOUT_NANOS) {
                fail("after 30 s, " + b + " does not show " + what + ": " + current);
            }
            Thread.sleep(100);
        }
    }

    private static HttpResponse<String> search(URL node, String key) {
        return Http.get(node, "api/search?q=live", "X-Api-Key", key);
    }

    private static HttpResponse<String> send(URL node, String method, String path, String type, String body) {
        HttpRequest.Builder request = Http.request(node, path);
        if (type != null) {
            request.header("Content-Type", type);
        }
        return Http.send(request.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body)));
    }

    private static JsonObject json(int status, HttpResponse<String> response) {
        assertEquals(status, response.statusCode(), describe(response));
        assertEquals("application/json", Http.contentType(response).orElse(null), describe(response));
        return Http.json(response);
    }

    private static String key(String purpose) {
        return "live-" + purpose + "-" + UUID.randomUUID();
    }
}
