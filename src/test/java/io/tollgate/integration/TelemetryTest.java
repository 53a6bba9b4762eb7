package io.tollgate.integration;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.tollgate.RateLimiter;
import io.tollgate.app.SearchResource;
import io.tollgate.app.TelemetryProducer;
import io.tollgate.testing.TestApp;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The Jakarta EE stack in one JVM with an {@link OpenTelemetry} bean, as MicroProfile Telemetry gives applications:
 * Tollgate finds it and counts each HTTP decision by rule and outcome, and adds programmatic decisions to the
 * application's span. Without the bean (every other test of the stack) Tollgate limits as ever.
 */
class TelemetryTest {

    private static final AttributeKey<String> RULE = AttributeKey.stringKey("tollgate.rule");
    private static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("tollgate.outcome");

    private static TestApp.Builder app() {
        return TestApp.builder().beans(SearchResource.class, TelemetryProducer.class)
                .property("tollgate.store", "memory")
                .property("tollgate.rules.search.rate", "1/1h")
                .property("tollgate.rules.search.burst", "3")
                .property("tollgate.rules.search.key", "header:X-Client");
    }

    private static Map<Attributes, Long> decisions(TelemetryProducer telemetry) {
        Map<Attributes, Long> counts = new HashMap<>();
        for (MetricData metric : telemetry.metrics().collectAllMetrics()) {
            if (metric.getName().equals("tollgate.decisions")) {
                for (LongPointData point : metric.getLongSumData().getPoints()) {
                    counts.put(point.getAttributes(), point.getValue());
                }
            }
        }
        return counts;
    }

    @Test
    void eachRequestIsCountedThroughTheApplicationsOpenTelemetry() throws Exception {
        String client = "client-" + UUID.randomUUID();
        try (TestApp app = app().start()) {
            TelemetryProducer telemetry = app.bean(TelemetryProducer.class);
            for (int i = 0; i < 5; i++) {
                app.get("search?q=" + i, "X-Client", client);
            }
            assertThat(app.get("search?q=other", "X-Client", "other-" + client).statusCode()).isEqualTo(200);
            assertThat(decisions(telemetry)).isEqualTo(Map.of(
                    Attributes.of(RULE, "search", OUTCOME, "allowed"), 4L,
                    Attributes.of(RULE, "search", OUTCOME, "denied"), 2L,
                    Attributes.of(RULE, "search", OUTCOME, "shadow-denied"), 0L));
        }
    }

    @Test
    void aProgrammaticDecisionIsAddedToTheApplicationsSpan() throws Exception {
        try (TestApp app = app().start()) {
            TelemetryProducer telemetry = app.bean(TelemetryProducer.class);
            RateLimiter limiter = app.bean(RateLimiter.class);
            Span span = app.bean(OpenTelemetry.class).getTracer("test").spanBuilder("export").startSpan();
            try (Scope scope = span.makeCurrent()) {
                assertThat(limiter.tryAcquire("search", "exporter", 3).allowed()).isTrue();
                assertThat(limiter.tryAcquire("search", "exporter", 1).allowed()).isFalse();
            } finally {
                span.end();
            }
            assertThat(telemetry.spans().getFinishedSpanItems()).singleElement().satisfies((SpanData data) -> {
                assertThat(data.getAttributes().get(OUTCOME)).isEqualTo("denied");
                assertThat(data.getAttributes().get(AttributeKey.longKey("tollgate.remaining"))).isEqualTo(0L);
                assertThat(data.getEvents()).singleElement().satisfies(e -> assertThat(e.getName()).isEqualTo("tollgate.denied"));
            });
        }
    }
}
