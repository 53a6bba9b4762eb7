package io.tollgate.it;

import static io.tollgate.it.Http.describe;
import static io.tollgate.it.Http.get;
import static io.tollgate.it.Http.header;
import static io.tollgate.it.Http.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.net.URL;
import java.net.http.HttpResponse;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The sample's CDI observer of {@code RateLimitDenied} ({@code DenialCounter}, read through
 * {@code GET /api/denials/{rule}}) is told of each 429 and of each would-be denial of a shadow rule, with
 * the SHA-256 of the client's key and the decision's retry-after, on a real server.
 */
@ExtendWith(ArquillianExtension.class)
class EventsIT {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.contract("events");
    }

    @ArquillianResource
    URL base;

    private JsonObject denials(String rule) {
        HttpResponse<String> response = get(base, "api/denials/" + rule);
        assertEquals(200, response.statusCode(), describe(response));
        return json(response);
    }

    @Test
    void anObserverIsToldOfEach429WithTheHashedKeyAndTheRetryAfter() {
        String key = "key-" + UUID.randomUUID();
        long before = denials("search").getJsonNumber("denied").longValueExact();
        for (int i = 0; i < 3; i++) { // search: burst 3
            HttpResponse<String> ok = get(base, "api/search?q=tea", "X-Api-Key", key);
            assertEquals(200, ok.statusCode(), describe(ok));
        }
        assertEquals(before, denials("search").getJsonNumber("denied").longValueExact(), "allowed requests fire nothing");
        HttpResponse<String> denied = null;
        for (int i = 1; i <= 2; i++) {
            denied = get(base, "api/search?q=tea", "X-Api-Key", key);
            assertEquals(429, denied.statusCode(), describe(denied));
            assertEquals(before + i, denials("search").getJsonNumber("denied").longValueExact(), "one event per 429");
        }
        JsonObject latest = denials("search").getJsonObject("latest");
        assertEquals(KeyHash.of(key), latest.getString("keyHash"), latest.toString());
        assertNotEquals(key, latest.getString("keyHash"));
        assertFalse(latest.getBoolean("shadow"), latest.toString());
        // the decision's exact wait (1 token an hour), which the Retry-After stretches by up to 50%
        long retryAfter = latest.getJsonNumber("retryAfter").longValueExact();
        long header = Long.parseLong(header(denied, "Retry-After"));
        assertTrue(retryAfter > 0 && retryAfter <= 3600 && retryAfter <= header && header <= retryAfter * 3 / 2 + 1,
                latest + " against Retry-After " + header);
    }

    @Test
    void aShadowRulesWouldBeDenialIsToldMarkedShadow() {
        String key = "key-" + UUID.randomUUID();
        long before = denials("recommendations").getJsonNumber("shadowDenied").longValueExact();
        for (int i = 0; i < 2; i++) { // recommendations: burst 1, shadow mode
            HttpResponse<String> ok = get(base, "api/recommendations", "X-Api-Key", key);
            assertEquals(200, ok.statusCode(), describe(ok));
        }
        JsonObject after = denials("recommendations");
        assertEquals(before + 1, after.getJsonNumber("shadowDenied").longValueExact(), after.toString());
        assertEquals(0, after.getJsonNumber("denied").longValueExact(), after.toString());
        assertTrue(after.getJsonObject("latest").getBoolean("shadow"), after.toString());
        assertEquals(KeyHash.of(key), after.getJsonObject("latest").getString("keyHash"), after.toString());
    }
}
