package io.tollgate.integration;

import static io.tollgate.testing.Http.header;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.app.IdentityResource;
import io.tollgate.testing.TestApp;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Limits from a header an API gateway sets ({@code limits-from=header:X-Plan-Limit}): believed only when the request
 * comes from a trusted proxy (here the test client, 127.0.0.1); from any other peer the rule's own limits apply.
 */
class GatewayLimitsTest {

    private TestApp app;

    @AfterEach
    void stop() {
        if (app != null) {
            app.close();
        }
    }

    private void start(String trustedProxies) throws Exception {
        app = TestApp.builder().beans(IdentityResource.class)
                .property("tollgate.store", "memory")
                .property("tollgate.trusted-proxies", trustedProxies)
                .property("tollgate.rules.plan.rate", "1/1h")
                .property("tollgate.rules.plan.key", "header:X-Api-Key")
                .property("tollgate.rules.plan.limits-from", "header:X-Plan-Limit")
                .property("tollgate.rules.plan.max-limit", "10/1h")
                .start();
    }

    private int allowedOf(String apiKey, String planLimit, int attempts, String policy) throws Exception {
        int allowed = 0;
        for (int i = 0; i < attempts; i++) {
            HttpResponse<String> response = app.get("identity/annotated", "X-Api-Key", apiKey, "X-Plan-Limit", planLimit);
            assertThat(header(response, "RateLimit-Policy")).as("request %d", i + 1).isEqualTo(policy);
            if (response.statusCode() == 200) {
                allowed++;
            }
        }
        return allowed;
    }

    @Test
    void callersBehindTheGatewayGetTheLimitsItSets() throws Exception {
        start("127.0.0.1");
        assertThat(allowedOf("basic-key", "2/1h", 6, "\"plan\";q=2;w=3600")).isEqualTo(2);
        assertThat(allowedOf("pro-key", "4/1h", 6, "\"plan\";q=4;w=3600")).isEqualTo(4);
        assertThat(allowedOf("greedy-key", "500/1h", 12, "\"plan\";q=10;w=3600")).isEqualTo(10);
    }

    @Test
    void theHeaderFromAPeerThatIsNoTrustedProxyIsIgnored() throws Exception {
        start("10.0.0.1");
        assertThat(allowedOf("direct-key", "4/1h", 4, "\"plan\";q=1;w=3600")).isEqualTo(1);
    }
}
