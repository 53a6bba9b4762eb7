package io.tollgate.it;

import static io.tollgate.it.Http.describe;
import static io.tollgate.it.Http.get;
import static io.tollgate.it.Http.header;
import static org.junit.jupiter.api.Assertions.assertEquals;

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
 * Limits from the caller's identity on a real server: the contract rule {@code plan-limits} takes each caller's limits
 * from the {@code X-Plan-Limit} header that the gateway sets (the suite trusts 127.0.0.1, the test client, as a proxy),
 * capped at {@code max-limit=10/1h}; a caller without the header gets the rule's own {@code 1/1h}.
 */
@ExtendWith(ArquillianExtension.class)
class IdentityLimitsIT {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.contract("identity-limits");
    }

    @ArquillianResource
    URL base;

    /** @return how many of {@code attempts} requests of a fresh key got a 200 before the 429s; each shows {@code policy} */
    private int allowedOf(String planLimit, int attempts, String policy) {
        String key = "key-" + UUID.randomUUID();
        int allowed = 0;
        for (int i = 0; i < attempts; i++) {
            HttpResponse<String> response = planLimit == null ? get(base, "api/plan-limits", "X-Api-Key", key)
                    : get(base, "api/plan-limits", "X-Api-Key", key, "X-Plan-Limit", planLimit);
            assertEquals(policy, header(response, "RateLimit-Policy"), "request " + (i + 1) + ": " + describe(response));
            if (response.statusCode() == 200) {
                assertEquals(i, allowed, "a 200 after a 429: " + describe(response));
                allowed++;
            } else {
                assertEquals(429, response.statusCode(), describe(response));
            }
        }
        return allowed;
    }

    @Test
    void twoCallersGetTheLimitsTheGatewaySetsForThem() {
        assertEquals(2, allowedOf("2/1h", 6, "\"plan-limits\";q=2;w=3600"));
        assertEquals(4, allowedOf("4/1h", 6, "\"plan-limits\";q=4;w=3600"));
    }

    @Test
    void limitsAboveTheBoundGetTheBoundAndACallerWithoutThemTheRulesOwn() {
        assertEquals(10, allowedOf("500/1s burst 1000", 13, "\"plan-limits\";q=10;w=3600"));
        assertEquals(1, allowedOf(null, 3, "\"plan-limits\";q=1;w=3600"));
    }
}
