package io.tollgate.it;

import static io.tollgate.it.Http.describe;
import static io.tollgate.it.Http.get;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * MicroProfile Telemetry (on Quarkus its OpenTelemetry extension) turned on by the application's own configuration, exporting by OTLP ({@code http/protobuf})
 * every 500 ms to a receiver this test runs on 127.0.0.1 and stops. On every server the spans of the rule's 429s
 * arrive with {@code tollgate.outcome=denied}; on Liberty and WildFly its 200s and 429s also arrive as
 * {@code tollgate.decisions} allowed and denied. Payara Micro 6.2025.10 posts metrics too, but its exports lacked
 * the search rule's data points, so there its counts are not relied on. The rule is {@code search} (Tollgate's
 * JAX-RS filter, burst 3), except on WildFly: there the server's span is started by a JAX-RS filter that runs after
 * Tollgate's (smallrye-opentelemetry's, at the default priority), so a request Tollgate's filter denies has no span;
 * the rule there is {@code reports} (the CDI interceptor of {@code ReportService}, inside the span, burst 2, a bucket
 * per tenant).
 */
@ExtendWith(ArquillianExtension.class)
class TelemetryOtlpIT {

    private static OtlpReceiver receiver;

    private static final boolean INTERCEPTED = Deployments.isWildfly();
    private static final String RULE = INTERCEPTED ? "reports" : "search";
    private static final int BURST = INTERCEPTED ? 2 : 3;
    private static final int REQUESTS = 5;

    @Deployment(testable = false)
    static WebArchive deployment() {
        try {
            receiver = OtlpReceiver.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (Deployments.isQuarkus()) { // Quarkus's OpenTelemetry extension, configured as Quarkus configures it
            return Deployments.war("telemetry-otlp", Deployments.contractConfig(Map.of(
                    "quarkus.otel.sdk.disabled", "false",
                    "quarkus.otel.service.name", "tollgate-telemetry-otlp-it",
                    "quarkus.otel.exporter.otlp.endpoint", receiver.endpoint(),
                    "quarkus.otel.exporter.otlp.protocol", "http/protobuf",
                    "quarkus.otel.metric.export.interval", "500ms",
                    "quarkus.otel.bsp.schedule.delay", "200ms")));
        }
        return Deployments.war("telemetry-otlp", Deployments.contractConfig(Map.of(
                "otel.sdk.disabled", "false",
                "otel.service.name", "tollgate-telemetry-otlp-it",
                "otel.exporter.otlp.endpoint", receiver.endpoint(),
                "otel.exporter.otlp.protocol", "http/protobuf",
                "otel.metrics.exporter", "otlp",
                "otel.metric.export.interval", "500",
                "otel.traces.exporter", "otlp",
                "otel.bsp.schedule.delay", "200",
                "otel.logs.exporter", "none")));
    }

    @AfterAll
    static void stopReceiver() {
        if (receiver != null) {
            receiver.close();
        }
    }

    @ArquillianResource
    URL base;

    /** @return the value of the last export of {@code tollgate.decisions} for the rule and {@code outcome}, or -1 */
    private static long lastExported(String outcome) {
        long value = -1;
        for (Map<String, String> point : receiver.sumPoints("tollgate.decisions")) {
            if (RULE.equals(point.get("tollgate.rule")) && outcome.equals(point.get("tollgate.outcome"))) {
                value = Long.parseLong(point.get("value"));
            }
        }
        return value;
    }

    /** @return the spans of the rule's requests Tollgate denied (Payara names the status http.status_code, Liberty http.response.status_code) */
    private static List<Map<String, String>> deniedSpans() {
        return receiver.spans().stream()
                .filter(span -> "denied".equals(span.get("tollgate.outcome")) && RULE.equals(span.get("tollgate.rule")))
                .toList();
    }

    @Test
    void denialsAreExportedByOtlpAsCountsAndOnTheRequestsSpans() throws Exception {
        String key = "key-" + UUID.randomUUID();
        for (int i = 0; i < REQUESTS; i++) {
            HttpResponse<String> response = get(base, INTERCEPTED ? "api/reports/" + key : "api/search?q=tea", "X-Api-Key", key);
            assertEquals(i < BURST ? 200 : 429, response.statusCode(), describe(response));
        }
        int denied = REQUESTS - BURST;
        // the exporters send on their own schedules: wait for the last export to have it all
        long deadline = System.nanoTime() + 30_000_000_000L;
        boolean counted = !Deployments.isPayara(); // Payara's exports lacked points of the rule: spans only, see the class
        while ((counted && (lastExported("allowed") != BURST || lastExported("denied") != denied) || deniedSpans().size() != denied)
                && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        String received = "points of " + RULE + ": " + receiver.sumPoints("tollgate.decisions").stream()
                .filter(point -> RULE.equals(point.get("tollgate.rule"))).toList() + "; posted to " + receiver.paths().size();
        if (counted) {
            assertEquals(BURST, lastExported("allowed"), "tollgate.decisions allowed, as exported last; " + received);
            assertEquals(denied, lastExported("denied"), "tollgate.decisions denied, as exported last; " + received);
            assertEquals(0, lastExported("shadow-denied"), received);
        }
        List<Map<String, String>> spans = deniedSpans();
        assertEquals(denied, spans.size(), "the spans of the " + denied + " 429s: " + receiver.spans());
        for (Map<String, String> span : spans) {
            assertEquals("0", span.get("tollgate.remaining"), span.toString());
            assertEquals("429", span.getOrDefault("http.response.status_code", span.get("http.status_code")), span.toString());
        }
    }
}
