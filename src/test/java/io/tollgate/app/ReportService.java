package io.tollgate.app;

import io.tollgate.RateLimitKey;
import io.tollgate.RateLimited;
import jakarta.enterprise.context.ApplicationScoped;

/** A rate-limited CDI service: per tenant by argument, and per caller (from the current request). */
@ApplicationScoped
public class ReportService {

    @RateLimited("reports")
    public String generate(@RateLimitKey String tenant) {
        return "report for " + tenant;
    }

    @RateLimited("llm")
    public String complete(String prompt) {
        return "completion of " + prompt;
    }
}
