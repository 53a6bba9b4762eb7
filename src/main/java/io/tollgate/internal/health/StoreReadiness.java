package io.tollgate.internal.health;

import io.tollgate.internal.runtime.Tollgate;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
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
    Instance<Tollgate> running;

    @Override
    public HealthCheckResponse call() {
        String problem;
        String store = "";
        try {
            Tollgate tollgate = running.get();
            store = tollgate.config().storeType().name().toLowerCase(java.util.Locale.ROOT);
            problem = tollgate.probeStore();
        } catch (RuntimeException e) { // not running: the deployment failed or the application is stopping
            problem = notRunning(e);
        }
        return problem == null
                ? HealthCheckResponse.named("tollgate").up().withData("store", store).build()
                : HealthCheckResponse.named("tollgate").down().withData("store", store).withData("error", problem).build();
    }

    /** @return the reason Tollgate is not running, from the exception the container may have wrapped it in */
    private static String notRunning(RuntimeException e) {
        Throwable cause = e;
        while (!(cause instanceof IllegalStateException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause.getMessage() != null ? cause.getMessage() : cause.toString();
    }
}
