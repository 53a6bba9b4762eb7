package io.tollgate.it;

import static io.tollgate.it.Http.describe;
import static io.tollgate.it.Http.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Open Liberty with MicroProfile Telemetry ({@code mpTelemetry-2.1}), turned on by the application's own configuration
 * with the logging exporters, which write to {@code messages.log}: Tollgate's counter {@code tollgate.decisions} counts
 * the search rule's 200s and 429s by outcome, and the server's span of a denied request carries the decision.
 */
@EnabledIfSystemProperty(named = "it.server", matches = "liberty")
@ExtendWith(ArquillianExtension.class)
class TelemetryIT {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.war("telemetry", Deployments.contractConfig(Map.of(
                "otel.sdk.disabled", "false",
                "otel.service.name", "tollgate-telemetry-it",
                "otel.metrics.exporter", "logging",
                "otel.metric.export.interval", "500",
                "otel.traces.exporter", "logging",
                "otel.logs.exporter", "none")));
    }

    @ArquillianResource
    URL base;

    /** The value of the last export of {@code tollgate.decisions} for rule search and {@code outcome} in the log, or -1. */
    private static long lastExported(String log, String outcome) {
        Matcher point = Pattern.compile("attributes=\\{tollgate\\.outcome=\"" + outcome + "\", tollgate\\.rule=\"search\"\\}, value=(\\d+)")
                .matcher(log);
        long value = -1;
        while (point.find()) {
            value = Long.parseLong(point.group(1));
        }
        return value;
    }

    /** @return the attributes of each server span with a denial, as the logging exporter writes spans */
    private static List<String> deniedSpans(String log) {
        // the span's name is the route where the server knows it ('GET /telemetry/api/search'), else shorter
        Matcher span = Pattern.compile("LoggingSpanExporter .* SERVER .*\\{data=\\{([^}]*)\\}").matcher(log);
        List<String> spans = new ArrayList<>();
        while (span.find()) {
            String attributes = span.group(1);
            if (attributes.contains("url.path=/telemetry/api/search") && attributes.contains("tollgate.outcome=denied")) {
                spans.add(attributes);
            }
        }
        return spans;
    }

    @Test
    void denialsAreCountedThroughOpenTelemetryAndOnTheRequestsSpan() throws Exception {
        ServerLog log = ServerLog.ofNodeA();
        String key = "key-" + UUID.randomUUID();
        for (int i = 0; i < 5; i++) { // search: burst 3
            HttpResponse<String> response = get(base, "api/search?q=tea", "X-Api-Key", key);
            assertEquals(i < 3 ? 200 : 429, response.statusCode(), describe(response));
        }
        // the exporters write on their own schedules (spans in batches): wait for the last of the lines
        long deadline = System.nanoTime() + 30_000_000_000L;
        String since = log.sinceMark();
        while ((lastExported(since, "allowed") != 3 || lastExported(since, "denied") != 2 || deniedSpans(since).size() != 2)
                && System.nanoTime() < deadline) {
            Thread.sleep(200);
            since = log.sinceMark();
        }
        assertEquals(3, lastExported(since, "allowed"), "tollgate.decisions allowed, as exported last:\n" + since);
        assertEquals(2, lastExported(since, "denied"), "tollgate.decisions denied, as exported last:\n" + since);
        assertEquals(0, lastExported(since, "shadow-denied"), since);
        List<String> spans = deniedSpans(since);
        assertEquals(2, spans.size(), "the spans of the two 429s:\n" + since);
        for (String span : spans) {
            assertTrue(span.contains("tollgate.rule=search") && span.contains("tollgate.remaining=0")
                    && span.contains("http.response.status_code=429"), span);
        }
    }
}
