package io.tollgate.sample;

import io.tollgate.RateLimitKey;
import io.tollgate.RateLimited;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * A rate-limited CDI service, one bucket per tenant (the {@link RateLimitKey} argument). Every call
 * is charged, whoever calls it; a denial throws {@link io.tollgate.RateLimitExceededException},
 * which Tollgate maps to a 429 when it reaches JAX-RS.
 */
@ApplicationScoped
public class ReportService {

    @RateLimited("reports")
    public String generate(@RateLimitKey String tenant) {
        return "report for " + tenant;
    }
}
