package io.tollgate.app;

import io.tollgate.RateLimitKey;
import io.tollgate.RateLimited;
import jakarta.enterprise.context.ApplicationScoped;

/** A limited CDI service that fails in two ways: the upstream's fault (refunded) and the caller's (charged). */
@ApplicationScoped
public class ExportService {

    @RateLimited("export")
    public String export(@RateLimitKey String tenant, String outcome) {
        if ("upstream-down".equals(outcome)) {
            throw new UpstreamDown("upstream down for " + tenant);
        }
        if ("bad-request".equals(outcome)) {
            throw new IllegalArgumentException("no such report");
        }
        return "export for " + tenant;
    }
}
