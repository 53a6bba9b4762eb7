package io.tollgate.it;

import static io.tollgate.it.Http.contentType;
import static io.tollgate.it.Http.describe;
import static io.tollgate.it.Http.get;
import static io.tollgate.it.Http.header;
import static io.tollgate.it.Http.json;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URL;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A store that is not there: the application is a Hazelcast client of a cluster that does not exist (a
 * port of 127.0.0.1 where nothing listens; on Payara the Data Grid is skipped by a JNDI name that names
 * nothing). A rule with {@code on-store-failure=deny} answers 429 with {@code Retry-After: 1} and the problem
 * type of reduced capacity; one with the default ({@code allow}) lets the request through, advertising nothing.
 * Either way the application's observer ({@code DenialCounter}, through {@code GET /api/denials/{rule}}) is told
 * of the store failure, with the key's hash and the policy's answer.
 */
@ExtendWith(ArquillianExtension.class)
class StoreUnavailableIT {

    private static final String REDUCED_CAPACITY = "https://iana.org/assignments/http-problem-types#temporary-reduced-capacity";

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.war("store-unavailable", Deployments.contractConfig(Map.of(
                "tollgate.hazelcast.jndi-name", "tollgate/no-such-instance",
                "tollgate.hazelcast.client.addresses", "127.0.0.1:" + portWhereNothingListens(),
                "tollgate.hazelcast.cluster-name", "a-cluster-that-is-not-there",
                "tollgate.store.timeout", "250ms",
                "tollgate.rules.search.on-store-failure", "deny")));
    }

    @ArquillianResource
    URL base;

    private JsonObject events(String rule) {
        HttpResponse<String> response = get(base, "api/denials/" + rule);
        assertEquals(200, response.statusCode(), describe(response));
        return json(response);
    }

    /** The observer counted one more store failure of {@code rule}, the latest for {@code key}, answered as the policy says. */
    private void assertOneMoreStoreFailure(String rule, long before, String key, boolean allowed) {
        JsonObject after = events(rule);
        assertEquals(before + 1, after.getJsonNumber("storeFailures").longValueExact(), after.toString());
        JsonObject failure = after.getJsonObject("latestStoreFailure");
        assertAll(
                () -> assertEquals(KeyHash.of(key), failure.getString("keyHash"), failure.toString()),
                () -> assertTrue(Set.of("ERROR", "TIMEOUT").contains(failure.getString("cause")), failure.toString()),
                () -> assertEquals(allowed, failure.getBoolean("allowed"), failure.toString()));
    }

    @Test
    void aRuleThatFailsClosedDeniesWithTheProblemOfReducedCapacity() {
        String key = "key-" + UUID.randomUUID();
        long failuresBefore = events("search").getJsonNumber("storeFailures").longValueExact();
        long denialsBefore = events("search").getJsonNumber("denied").longValueExact();
        HttpResponse<String> denied = get(base, "api/search?q=tea", "X-Api-Key", key);
        assertEquals(429, denied.statusCode(), describe(denied));
        assertEquals("application/problem+json", contentType(denied).orElse(null), describe(denied));
        JsonObject problem = json(denied);
        assertAll(
                () -> assertEquals(REDUCED_CAPACITY, problem.getString("type"), denied.body()),
                () -> assertEquals(429, problem.getInt("status"), denied.body()),
                () -> assertEquals("search", problem.getString("rule"), denied.body()),
                () -> assertEquals("1", header(denied, "Retry-After"), describe(denied)),
                () -> assertNull(header(denied, "RateLimit"), "a decision without the store is not advertised: " + describe(denied)));
        assertOneMoreStoreFailure("search", failuresBefore, key, false);
        assertEquals(denialsBefore + 1, events("search").getJsonNumber("denied").longValueExact(), "the policy's 429 is a denial too");
    }

    @Test
    void aRuleThatFailsOpenLetsTheRequestThrough() {
        String key = "key-" + UUID.randomUUID();
        long failuresBefore = events("items").getJsonNumber("storeFailures").longValueExact();
        HttpResponse<String> ok = get(base, "api/items/1", "X-Api-Key", key);
        assertEquals(200, ok.statusCode(), describe(ok));
        assertNull(header(ok, "RateLimit"), "a decision without the store is not advertised: " + describe(ok));
        assertOneMoreStoreFailure("items", failuresBefore, key, true);
    }

    private static int portWhereNothingListens() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
