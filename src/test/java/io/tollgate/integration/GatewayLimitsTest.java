package io.tollgate.integration;

import static io.tollgate.testing.Http.header;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.app.IdentityResource;
import io.tollgate.testing.ForwardingProxy;
import io.tollgate.testing.RawHttp;
import io.tollgate.testing.TestApp;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Limits from a header an API gateway sets ({@code limits-from=header:X-Plan-Limit}): believed only when the request's
 * TCP peer is one of {@code tollgate.limits-from.trusted-gateways}; from any other peer, a trusted proxy included, the
 * rule's own limits apply. The proxies in front of the application are real ones on other loopback addresses.
 */
class GatewayLimitsTest {

    /** A load balancer: trusted to name the client in X-Forwarded-For, it passes the client's headers through. */
    private static final String LOAD_BALANCER = "127.0.0.2";
    /** The API gateway: sets X-Plan-Limit from the caller's plan, replacing whatever the client sent. */
    private static final String GATEWAY = "127.0.0.3";
    private static final Map<String, String> PLANS = Map.of("basic-key", "2/1h", "pro-key", "4/1h");

    private TestApp app;

    @AfterEach
    void stop() {
        if (app != null) {
            app.close();
        }
    }

    private void start(String trustedProxies, String trustedGateways) throws Exception {
        app = TestApp.builder().beans(IdentityResource.class)
                .property("tollgate.store", "memory")
                .property("tollgate.trusted-proxies", trustedProxies)
                .property("tollgate.limits-from.trusted-gateways", trustedGateways)
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

    /** @return how many of {@code attempts} requests through {@code proxy} were allowed, each with {@code policy} */
    private static int allowedVia(URI proxy, String apiKey, String planLimit, int attempts, String policy) throws Exception {
        List<RawHttp.Header> headers = new ArrayList<>(List.of(RawHttp.Header.of("X-Api-Key", apiKey)));
        if (planLimit != null) {
            headers.add(RawHttp.Header.of("X-Plan-Limit", planLimit));
        }
        int allowed = 0;
        for (int i = 0; i < attempts; i++) {
            RawHttp.Response response = RawHttp.send(proxy, "GET", "/identity/annotated", headers);
            assertThat(response.header("RateLimit-Policy")).as("request %d: %s", i + 1, response).isEqualTo(policy);
            if (response.status() == 200) {
                allowed++;
            }
        }
        return allowed;
    }

    @Test
    void callersBehindTheGatewayGetTheLimitsItSets() throws Exception {
        start("", "127.0.0.1");
        assertThat(allowedOf("basic-key", "2/1h", 6, "\"plan\";q=2;w=3600")).isEqualTo(2);
        assertThat(allowedOf("pro-key", "4/1h", 6, "\"plan\";q=4;w=3600")).isEqualTo(4);
        assertThat(allowedOf("greedy-key", "500/1h", 12, "\"plan\";q=10;w=3600")).isEqualTo(10);
    }

    @Test
    void theHeaderFromAPeerThatIsNoTrustedGatewayIsIgnored() throws Exception {
        start("", "10.0.0.1");
        assertThat(allowedOf("direct-key", "4/1h", 4, "\"plan\";q=1;w=3600")).isEqualTo(1);
    }

    /**
     * Both proxies are trusted to name the client; only the gateway sets the limits. A client that goes through the
     * load balancer, which passes its own X-Plan-Limit through, gets the rule's own 1/1h (before the gateways had a
     * list of their own, the trusted load balancer's header was believed: 10 of 12, max-limit's burst).
     */
    @Test
    void aClientBehindATrustedLoadBalancerThatPassesHeadersThroughCannotPickItsPlan() throws Exception {
        start(LOAD_BALANCER + ", " + GATEWAY, GATEWAY);
        try (ForwardingProxy loadBalancer = ForwardingProxy.passingHeaders(LOAD_BALANCER, app.base())) {
            assertThat(allowedVia(loadBalancer.base(), "greedy-key", "500/1h", 12, "\"plan\";q=1;w=3600")).isEqualTo(1);
            assertThat(allowedVia(loadBalancer.base(), "pro-key", "4/1h", 3, "\"plan\";q=1;w=3600")).isEqualTo(1);
        }
    }

    /** The gateway in the list is believed: each caller gets its plan, whatever X-Plan-Limit it sent itself. */
    @Test
    void theGatewayInTheListSetsEachCallersPlan() throws Exception {
        start(LOAD_BALANCER + ", " + GATEWAY, GATEWAY);
        try (ForwardingProxy gateway = ForwardingProxy.setting(GATEWAY, app.base(), "X-Plan-Limit",
                headers -> PLANS.get(headers.get("X-Api-Key")))) {
            assertThat(allowedVia(gateway.base(), "pro-key", "500/1h", 6, "\"plan\";q=4;w=3600")).isEqualTo(4);
            assertThat(allowedVia(gateway.base(), "basic-key", null, 4, "\"plan\";q=2;w=3600")).isEqualTo(2);
            // a caller without a plan: the gateway sends no header, the client's own is dropped
            assertThat(allowedVia(gateway.base(), "unknown-key", "500/1h", 3, "\"plan\";q=1;w=3600")).isEqualTo(1);
        }
    }
}
