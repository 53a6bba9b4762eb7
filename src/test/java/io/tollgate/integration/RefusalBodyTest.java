package io.tollgate.integration;

import static io.tollgate.testing.Http.header;
import static io.tollgate.testing.Http.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.app.RefusalsResource;
import io.tollgate.app.RefusalsService;
import io.tollgate.app.ShapedRefusals;
import io.tollgate.app.ShapedRefusals.Mode;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.SharedCluster;
import io.tollgate.testing.TestApp;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The application's {@link io.tollgate.jaxrs.RefusalBody}: the 429 and the 400s of the filter and of the interceptor
 * carry its body and media type, with the status and headers Tollgate gives them without it; a failing bean gives
 * Tollgate's own body. On a stopped clock, so that two refusals of one key carry the same headers.
 */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
class RefusalBodyTest {

    private static final List<String> TOLLGATES_HEADERS = List.of("Retry-After", "RateLimit", "RateLimit-Policy");

    private static HazelcastTestCluster cluster;
    private static TestApp app;

    @BeforeAll
    static void start(HazelcastTestCluster shared) throws Exception {
        cluster = shared;
        app = TestApp.builder().beans(RefusalsResource.class, RefusalsService.class, ShapedRefusals.class)
                .hazelcast(cluster.member(0))
                .property("tollgate.hazelcast.map", "refusal-bodies-" + UUID.randomUUID())
                .property("tollgate.denial-cache", "false")
                .property("tollgate.rules.filtered.rate", "1/1h").property("tollgate.rules.filtered.burst", "1")
                .property("tollgate.rules.filtered.key", "header:X-Api-Key")
                .property("tollgate.rules.filtered.on-missing-key", "reject")
                .property("tollgate.rules.filtered.cost", "header:X-Weight")
                .property("tollgate.rules.keyed.rate", "1/1h").property("tollgate.rules.keyed.burst", "1")
                .property("tollgate.rules.keyed.cost", "header:X-Weight")
                .property("tollgate.rules.service.rate", "1/1h").property("tollgate.rules.service.burst", "5")
                .property("tollgate.rules.service.key", "header:X-Api-Key")
                .property("tollgate.rules.service.on-missing-key", "reject")
                .start();
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @BeforeEach
    void stopTheClock() {
        cluster.clock().set(2_100_000_000L * 1_000_000);
    }

    @AfterEach
    void tollgatesBodies() {
        ShapedRefusals.answer(Mode.TOLLGATES);
    }

    private static HttpResponse<String> get(Mode mode, String path, String... headers) throws Exception {
        ShapedRefusals.answer(mode);
        return app.get(path, headers);
    }

    /** @return the values of the headers Tollgate sets on a refusal, by name; absent ones left out */
    private static Map<String, List<String>> tollgatesHeaders(HttpResponse<String> response) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (String name : TOLLGATES_HEADERS) {
            List<String> values = response.headers().allValues(name);
            if (!values.isEmpty()) {
                headers.put(name, values);
            }
        }
        return headers;
    }

    /** Asserts that {@code own} has the application's body and Tollgate's status and headers of {@code tollgates}. */
    private static void sameButTheBody(HttpResponse<String> tollgates, HttpResponse<String> own, String body) {
        assertThat(header(tollgates, "Content-Type")).isEqualTo("application/problem+json");
        assertThat(own.body()).isEqualTo(body);
        assertThat(header(own, "Content-Type")).startsWith("text/plain");
        assertThat(own.statusCode()).isEqualTo(tollgates.statusCode());
        assertThat(tollgatesHeaders(own)).isEqualTo(tollgatesHeaders(tollgates));
    }

    @Test
    void aDenialByTheFilterHasTheApplicationsBodyWithTollgatesStatusAndHeaders() throws Exception {
        String key = "f-" + UUID.randomUUID();
        assertThat(app.get("refusals/filtered", "X-Api-Key", key).statusCode()).isEqualTo(200);
        HttpResponse<String> tollgates = get(Mode.TOLLGATES, "refusals/filtered", "X-Api-Key", key);
        HttpResponse<String> own = get(Mode.OWN, "refusals/filtered", "X-Api-Key", key);

        assertThat(tollgates.statusCode()).isEqualTo(429);
        assertThat(json(tollgates).getString("rule")).isEqualTo("filtered");
        assertThat(tollgatesHeaders(tollgates)).containsOnlyKeys(TOLLGATES_HEADERS);
        sameButTheBody(tollgates, own, "refused by rule 'filtered' with 429 (exceeded), retry after 3600 s");
        get(Mode.OWN, "refusals/filtered", "X-Api-Key", key);
        assertThat(ShapedRefusals.instances()).as("the application-scoped bean is asked, never destroyed").isEqualTo(1);
    }

    @Test
    void aDenialThrownByTheInterceptorHasTheApplicationsBodyWithTollgatesStatusAndHeaders() throws Exception {
        String tenant = "k-" + UUID.randomUUID();
        assertThat(app.get("refusals/keyed/" + tenant).statusCode()).isEqualTo(200);
        HttpResponse<String> tollgates = get(Mode.TOLLGATES, "refusals/keyed/" + tenant);
        HttpResponse<String> own = get(Mode.OWN, "refusals/keyed/" + tenant);

        assertThat(tollgates.statusCode()).isEqualTo(429);
        assertThat(json(tollgates).getString("rule")).isEqualTo("keyed");
        assertThat(tollgatesHeaders(tollgates)).containsOnlyKeys(TOLLGATES_HEADERS);
        sameButTheBody(tollgates, own, "refused by rule 'keyed' with 429 (exceeded), retry after 3600 s");
    }

    @Test
    void theFiltersBadRequestsHaveTheApplicationsBody() throws Exception {
        HttpResponse<String> tollgates = get(Mode.TOLLGATES, "refusals/filtered");
        HttpResponse<String> own = get(Mode.OWN, "refusals/filtered");
        assertThat(tollgates.statusCode()).isEqualTo(400);
        assertThat(json(tollgates).getString("type")).isEqualTo("urn:tollgate:problem:missing-key");
        sameButTheBody(tollgates, own, "refused by rule 'filtered' with 400 (missing key)");

        String key = "c-" + UUID.randomUUID();
        tollgates = get(Mode.TOLLGATES, "refusals/filtered", "X-Api-Key", key, "X-Weight", "1.5");
        own = get(Mode.OWN, "refusals/filtered", "X-Api-Key", key, "X-Weight", "1.5");
        assertThat(tollgates.statusCode()).isEqualTo(400);
        assertThat(json(tollgates).getString("type")).isEqualTo("urn:tollgate:problem:invalid-cost");
        sameButTheBody(tollgates, own, "refused by rule 'filtered' with 400 (invalid cost)");
        assertThat(app.get("refusals/filtered", "X-Api-Key", key).statusCode()).as("nothing was charged").isEqualTo(200);
    }

    @Test
    void theInterceptorsBadRequestsHaveTheApplicationsBody() throws Exception {
        HttpResponse<String> tollgates = get(Mode.TOLLGATES, "refusals/service");
        HttpResponse<String> own = get(Mode.OWN, "refusals/service");
        assertThat(tollgates.statusCode()).isEqualTo(400);
        assertThat(json(tollgates).getString("type")).isEqualTo("urn:tollgate:problem:missing-key");
        sameButTheBody(tollgates, own, "refused by rule 'service' with 400 (missing key)");

        String tenant = "w-" + UUID.randomUUID();
        tollgates = get(Mode.TOLLGATES, "refusals/keyed/" + tenant, "X-Weight", "-1");
        own = get(Mode.OWN, "refusals/keyed/" + tenant, "X-Weight", "-1");
        assertThat(tollgates.statusCode()).isEqualTo(400);
        assertThat(json(tollgates).getString("type")).isEqualTo("urn:tollgate:problem:invalid-cost");
        sameButTheBody(tollgates, own, "refused by rule 'keyed' with 400 (invalid cost)");
    }

    @Test
    void aFailingBodyGivesTollgatesOwn() throws Exception {
        String key = "x-" + UUID.randomUUID();
        assertThat(app.get("refusals/filtered", "X-Api-Key", key).statusCode()).isEqualTo(200);
        HttpResponse<String> tollgates = get(Mode.TOLLGATES, "refusals/filtered", "X-Api-Key", key);
        HttpResponse<String> failing = get(Mode.FAILING, "refusals/filtered", "X-Api-Key", key);
        assertThat(failing.statusCode()).isEqualTo(429);
        assertThat(failing.body()).isEqualTo(tollgates.body());
        assertThat(header(failing, "Content-Type")).isEqualTo("application/problem+json");
        assertThat(tollgatesHeaders(failing)).isEqualTo(tollgatesHeaders(tollgates));

        HttpResponse<String> missing = get(Mode.FAILING, "refusals/service");
        assertThat(missing.statusCode()).isEqualTo(400);
        assertThat(json(missing).getString("type")).isEqualTo("urn:tollgate:problem:missing-key");
    }
}
