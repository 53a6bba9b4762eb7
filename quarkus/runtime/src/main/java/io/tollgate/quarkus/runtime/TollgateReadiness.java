package io.tollgate.quarkus.runtime;

import io.tollgate.internal.health.StoreReadiness;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Tollgate's readiness check on Quarkus ({@code /q/health/ready}): added where the application has SmallRye Health. */
@Readiness
@Singleton
public class TollgateReadiness implements HealthCheck {

    private final HealthCheck check;

    @Inject
    TollgateReadiness(QuarkusTollgate tollgate) {
        this.check = StoreReadiness.of(tollgate::tollgate);
    }

    @Override
    public HealthCheckResponse call() {
        return check.call();
    }
}
