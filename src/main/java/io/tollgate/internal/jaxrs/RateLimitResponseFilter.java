package io.tollgate.internal.jaxrs;

import io.tollgate.internal.limiter.RuleCheck;
import io.tollgate.internal.runtime.RequestRecord;
import io.tollgate.internal.runtime.Tollgate;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import java.util.List;

/**
 * Settles the checks whose rules keep their charge or not by the response's status ({@code charge-on},
 * {@code refund-on}), then puts the rate-limit headers of the request's checks (filter and interceptor alike) on
 * the response, as the buckets read after any refund. A response that no JAX-RS filter sees (an exception no
 * mapper takes, which the server answers past JAX-RS) is settled when the request's CDI context ends instead
 * ({@code RequestEnd}).
 */
final class RateLimitResponseFilter implements ContainerResponseFilter {

    private final Tollgate tollgate;

    RateLimitResponseFilter(Tollgate tollgate) {
        this.tollgate = tollgate;
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (request.getProperty(RequestRecord.ATTRIBUTE) instanceof RequestRecord record) {
            tollgate.settle(record, response.getStatus());
            List<RuleCheck> checks = record.checks();
            if (!checks.isEmpty()) {
                Responses.addHeaders(tollgate.config(), checks, response.getHeaders());
            }
        }
    }
}
