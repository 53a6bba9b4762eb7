package io.tollgate.it;

import static io.tollgate.it.Http.describe;
import static io.tollgate.it.Http.get;
import static io.tollgate.it.Http.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
 * An asynchronous resource method ({@code CompletionStage}, {@code GET /api/async-search}) is limited as any other: 200s
 * up to the burst, then 429s with the rule's headers. On Quarkus REST such a method runs on a Vert.x event loop, which
 * must never block; there the method says it ran on an event loop, and the denial (the Hazelcast store's round trip) was
 * decided on another thread: the sample's observer of {@code RateLimitDenied}, which runs where the decision is made,
 * names it.
 */
@ExtendWith(ArquillianExtension.class)
class AsyncResourceIT {

    private static final int BURST = 2;

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.contract("async");
    }

    @ArquillianResource
    URL base;

    @Test
    void anAsynchronousMethodIsLimitedAndItsDenialsAreDecidedOffTheEventLoop() {
        String key = "key-" + UUID.randomUUID();
        for (int i = 0; i < BURST; i++) {
            HttpResponse<String> ok = get(base, "api/async-search?q=tea", "X-Api-Key", key);
            assertEquals(200, ok.statusCode(), describe(ok));
            assertTrue(ok.body().startsWith("results for tea on "), describe(ok));
            if (Deployments.isQuarkus()) {
                assertTrue(ok.body().contains("eventloop"), "Quarkus REST runs the method on an event loop: " + describe(ok));
            }
        }
        HttpResponse<String> denied = get(base, "api/async-search?q=tea", "X-Api-Key", key);
        assertEquals(429, denied.statusCode(), describe(denied));
        assertTrue(denied.headers().firstValue("RateLimit").orElse("").startsWith("\"async-search\";r=0;t="), describe(denied));

        JsonObject observed = json(get(base, "api/denials/async-search"));
        assertEquals(1, observed.getJsonNumber("denied").longValue(), observed.toString());
        String thread = observed.getJsonObject("latest").getString("thread");
        assertFalse(thread.isBlank(), observed.toString());
        if (Deployments.isQuarkus()) {
            assertFalse(thread.contains("eventloop"), "decided on an event loop: " + thread);
        }
    }
}
