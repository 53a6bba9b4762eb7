package io.tollgate.internal.jaxrs;

import io.tollgate.Decision;
import io.tollgate.RateLimitExceededException;
import io.tollgate.internal.cdi.RequestState;
import io.tollgate.internal.cdi.Tollgate;
import io.tollgate.internal.cdi.TollgateExtension;
import io.tollgate.internal.limiter.RuleCheck;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.List;

/**
 * Maps a denial thrown by the interceptor (or by application code) to the same 429 the filter sends:
 * {@code Retry-After}, rate-limit headers, a problem body naming the rule.
 */
@Provider
public class RateLimitExceededMapper implements ExceptionMapper<RateLimitExceededException> {

    @Override
    public Response toResponse(RateLimitExceededException exception) {
        Decision decision = exception.getDecision();
        CDI<Object> cdi = CDI.current();
        TollgateExtension extension = cdi.getBeanManager().getExtension(TollgateExtension.class);
        List<RuleCheck> checks = List.of();
        String key = "";
        try {
            checks = cdi.select(RequestState.class).get().checks();
            for (RuleCheck check : checks) {
                if (check.decision() == decision) {
                    key = check.key();
                }
            }
        } catch (RuntimeException e) {
            // no request context: no headers beyond Retry-After
        }
        Tollgate tollgate = extension.tollgate();
        tollgate.httpRequests().beforeTooManyRequests();
        return Responses.tooManyRequests(tollgate.config(), decision, key, checks);
    }
}
