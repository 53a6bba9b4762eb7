package io.tollgate.internal.health;

import io.tollgate.internal.runtime.Tollgate;
import jakarta.enterprise.inject.spi.AfterBeanDiscovery;
import java.util.Locale;
import java.util.function.Supplier;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;

/**
 * Readiness check {@code tollgate}: up while the rate-limit store answers a read-only question
 * within the store timeout; down, with the reason, while it does not (the rules' on-store-failure
 * policies are answering meanwhile). Only registered where the server offers MicroProfile Health.
 */
public final class StoreReadiness implements HealthCheck {

    private final Supplier<Tollgate> running;

    StoreReadiness(Supplier<Tollgate> running) {
        this.running = running;
    }

    /**
     * @param running Tollgate as deployed (throws {@link IllegalStateException} while it is not running)
     * @return the check, for a container that registers it itself (Quarkus)
     */
    public static HealthCheck of(Supplier<Tollgate> running) {
        return new StoreReadiness(running);
    }

    /**
     * Adds the check as a bean of the application ({@code @Readiness HealthCheck}), where the server's health support
     * sees it (see {@link ReadinessBean}).
     *
     * @param running Tollgate as deployed (throws {@link IllegalStateException} while it is not running)
     */
    public static void addTo(AfterBeanDiscovery event, Supplier<Tollgate> running) {
        event.addBean(new ReadinessBean(running));
    }

    @Override
    public HealthCheckResponse call() {
        String problem;
        String store = "";
        try {
            Tollgate tollgate = running.get();
            store = tollgate.config().storeType().name().toLowerCase(Locale.ROOT);
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
