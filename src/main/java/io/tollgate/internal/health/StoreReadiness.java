package io.tollgate.internal.health;

import io.tollgate.internal.cdi.TollgateExtension;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness check {@code tollgate}: up while the rate-limit store answers a read-only question
 * within the store timeout; down, with the reason, while it does not (the rules' on-store-failure
 * policies are answering meanwhile). Only registered where the server offers MicroProfile Health.
 */
@Readiness
@ApplicationScoped
public class StoreReadiness implements HealthCheck {

    @Inject
    TollgateExtension extension;

    @Override
    public HealthCheckResponse call() {
        String problem;
        String store = "";
        try {
            store = extension.tollgate().config().storeType().name().toLowerCase(java.util.Locale.ROOT);
            problem = extension.tollgate().probeStore();
        } catch (IllegalStateException e) {
            problem = e.getMessage();
        }
        return problem == null
                ? HealthCheckResponse.named("tollgate").up().withData("store", store).build()
                : HealthCheckResponse.named("tollgate").down().withData("store", store).withData("error", problem).build();
    }
}
