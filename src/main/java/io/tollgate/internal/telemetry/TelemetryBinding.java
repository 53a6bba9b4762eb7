package io.tollgate.internal.telemetry;

import io.opentelemetry.api.OpenTelemetry;
import io.tollgate.internal.config.TollgateConfig;
import io.tollgate.internal.limiter.DecisionObserver;
import io.tollgate.internal.store.StoreCluster;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

/**
 * Gets the application's {@link OpenTelemetry} (MicroProfile Telemetry's bean) by injection and makes Tollgate's
 * instruments and span attributes with it. Only registered where the OpenTelemetry API is present.
 */
@Dependent
public class TelemetryBinding implements DecisionObserver.Factory {

    /** Through {@link Instance}: an application may carry the API while its server offers no MicroProfile Telemetry. */
    @Inject
    Instance<OpenTelemetry> openTelemetry;

    @Override
    public DecisionObserver create(TollgateConfig config, StoreCluster cluster) {
        return openTelemetry.isResolvable() ? TelemetryObservers.of(openTelemetry.get(), config, cluster) : DecisionObserver.NONE;
    }
}
