package io.tollgate.it;

import static io.tollgate.it.Http.describe;
import static io.tollgate.it.Http.get;
import static io.tollgate.it.Http.header;
import static io.tollgate.it.Http.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.http.HttpResponse;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The sample application with the configuration it ships (the demo's): it deploys, and its search, keyed
 * by client address with Tollgate's default store timeout, turns 200s into 429s as the demo shows.
 */
@ExtendWith(ArquillianExtension.class)
class SampleApplicationIT {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.sampleAsShipped("tollgate-sample");
    }

    @ArquillianResource
    URL base;

    @Test
    void searchByClientAddressTurns200sInto429s() {
        // With the default timeout (250 ms) a busy machine may answer a request by the rule's policy
        // (on-store-failure=allow: a 200 without rate-limit headers). The first answer of the store then
        // counts the requests before it that its owner got to in time, so it may show up to that many fewer.
        HttpResponse<String> first = null;
        int byPolicy = 0;
        for (int i = 0; i < 50 && first == null; i++) {
            HttpResponse<String> response = get(base, "api/search?q=tea");
            assertEquals(200, response.statusCode(), describe(response));
            assertEquals("results for tea", response.body());
            if (header(response, "RateLimit-Policy") != null) {
                first = response;
            } else {
                byPolicy++;
            }
        }
        assertNotNull(first, "50 requests answered by the policy: the store never answered within the timeout");
        assertEquals("\"search\";q=1;w=1", header(first, "RateLimit-Policy"), describe(first)); // 1 per second
        if (byPolicy == 0) {
            assertEquals("\"search\";r=4;t=1", header(first, "RateLimit"), describe(first));
        } else {
            System.out.println("[it] " + Deployments.SERVER + " sample: " + byPolicy + " request(s) answered by the policy first");
            String rateLimit = header(first, "RateLimit");
            assertTrue(rateLimit != null && rateLimit.startsWith("\"search\";r="), describe(first));
            long remaining = Long.parseLong(rateLimit.substring("\"search\";r=".length(), rateLimit.indexOf(";t=")));
            assertTrue(remaining <= 4 && remaining >= 4 - byPolicy, describe(first));
        }

        // 5 at once, one more per second: a quick loop meets a 429 (bounded: 50 requests)
        HttpResponse<String> denied = null;
        for (int i = 0; i < 50 && denied == null; i++) {
            HttpResponse<String> response = get(base, "api/search?q=tea");
            if (response.statusCode() == 429) {
                denied = response;
            } else {
                assertEquals(200, response.statusCode(), describe(response));
            }
        }
        assertNotNull(denied, "no 429 in 50 requests");
        long retryAfter = Long.parseLong(header(denied, "Retry-After"));
        assertTrue(retryAfter >= 1 && retryAfter <= 2, describe(denied)); // at most 1 s, plus up to 50%
        assertEquals("search", json(denied).getString("rule"));
        assertEquals(retryAfter, json(denied).getJsonNumber("retryAfter").longValueExact());
    }

    @Test
    void statusIsNotLimited() {
        for (int i = 0; i < 20; i++) {
            HttpResponse<String> ok = get(base, "api/status");
            assertEquals(200, ok.statusCode(), describe(ok));
        }
    }
}
