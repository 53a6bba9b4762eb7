package io.tollgate.internal.jaxrs;

import io.tollgate.internal.config.TollgateConfig;
import io.tollgate.internal.limiter.RuleCheck;
import io.tollgate.internal.runtime.RequestRecord;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import java.util.List;

/** Puts the rate-limit headers of the request's checks (filter and interceptor alike) on the response. */
final class RateLimitResponseFilter implements ContainerResponseFilter {

    private final TollgateConfig config;

    RateLimitResponseFilter(TollgateConfig config) {
        this.config = config;
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (request.getProperty(RequestRecord.ATTRIBUTE) instanceof RequestRecord record) {
            List<RuleCheck> checks = record.checks();
            if (!checks.isEmpty()) {
                Responses.addHeaders(config, checks, response.getHeaders());
            }
        }
    }
}
