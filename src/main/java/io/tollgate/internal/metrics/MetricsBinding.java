package io.tollgate.internal.metrics;

import io.tollgate.internal.config.TollgateConfig;
import io.tollgate.internal.limiter.DecisionObserver;
import io.tollgate.internal.limiter.NearLimit;
import io.tollgate.internal.store.StoreCluster;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.MetricRegistry;

/**
 * Gets the application's registry by injection (the servers' registry producers read the
 * injection point, so a programmatic look-up does not do) and makes Tollgate's metrics in it.
 * Only registered where the server offers MicroProfile Metrics.
 */
@Dependent
public class MetricsBinding implements DecisionObserver.Factory {

    /** Through {@link Instance}: an application may carry the API while its server offers no registry. */
    @Inject
    Instance<MetricRegistry> registry;

    @Override
    public DecisionObserver create(TollgateConfig config, StoreCluster cluster) {
        return registry.isResolvable()
                ? new MicroProfileMetrics(registry.get(), config.rules().values(), new NearLimit(config.nearLimit()), cluster)
                : DecisionObserver.NONE;
    }
}
