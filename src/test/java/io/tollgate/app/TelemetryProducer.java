package io.tollgate.app;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

/**
 * The application's {@link OpenTelemetry} bean, as MicroProfile Telemetry provides one: an SDK whose metrics and spans
 * the test reads from memory.
 */
@ApplicationScoped
public class TelemetryProducer {

    private final InMemoryMetricReader metrics = InMemoryMetricReader.create();
    private final InMemorySpanExporter spans = InMemorySpanExporter.create();
    private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
            .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(metrics).build())
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
            .build();

    @Produces
    OpenTelemetry openTelemetry() {
        return sdk;
    }

    public InMemoryMetricReader metrics() {
        return metrics;
    }

    public InMemorySpanExporter spans() {
        return spans;
    }

    @PreDestroy
    void close() {
        sdk.close();
    }
}
