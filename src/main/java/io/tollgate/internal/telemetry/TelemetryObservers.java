package io.tollgate.internal.telemetry;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.metrics.MeterProvider;
import io.opentelemetry.api.trace.TracerProvider;
import io.tollgate.internal.config.TollgateConfig;
import io.tollgate.internal.limiter.DecisionObserver;
import io.tollgate.internal.limiter.NearLimit;
import io.tollgate.internal.store.StoreCluster;

/** Tollgate's instruments and span attributes in an {@link OpenTelemetry}, or nothing where it records nothing. */
public final class TelemetryObservers {

    /** The instrumentation scope of Tollgate's meter. */
    static final String SCOPE = "io.tollgate";

    private TelemetryObservers() {
    }

    /**
     * @return the instruments, unless the meter provider is the API's no-op one, and the span attributes, unless the
     *         tracer provider is ({@code otel.sdk.disabled=true}, MicroProfile Telemetry's default, gives both no-op
     *         providers: then nothing at all is done per decision)
     */
    public static DecisionObserver of(OpenTelemetry openTelemetry, TollgateConfig config) {
        return of(openTelemetry, config, StoreCluster.ALONE);
    }

    /** @param cluster the store's cluster, whose members the gauge {@code tollgate.cluster.members} counts */
    public static DecisionObserver of(OpenTelemetry openTelemetry, TollgateConfig config, StoreCluster cluster) {
        Meter meter = openTelemetry.getMeterProvider().get(SCOPE);
        DecisionObserver metrics = meter == MeterProvider.noop().get(SCOPE) ? DecisionObserver.NONE
                : new TelemetryMetrics(meter, config.rules().values(), new NearLimit(config.nearLimit()), cluster);
        DecisionObserver spans = openTelemetry.getTracerProvider() == TracerProvider.noop() ? DecisionObserver.NONE
                : new DecisionSpans();
        return DecisionObserver.both(metrics, spans);
    }
}
