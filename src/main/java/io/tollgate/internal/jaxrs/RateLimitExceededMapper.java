package io.tollgate.internal.jaxrs;

import io.tollgate.Decision;
import io.tollgate.RateLimitExceededException;
import io.tollgate.internal.limiter.RuleCheck;
import io.tollgate.internal.runtime.RequestRecord;
import io.tollgate.internal.runtime.Tollgate;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.List;

/**
 * Maps a denial thrown by the interceptor (or by application code) to the same 429 the filter sends:
 * {@code Retry-After}, rate-limit headers, a problem body naming the rule (or the application's {@link io.tollgate.jaxrs.RefusalBody}).
 */
@Provider
public class RateLimitExceededMapper implements ExceptionMapper<RateLimitExceededException> {

    /** The application's bodies of refusals, looked up on the first. */
    private final RefusalBodies bodies = new RefusalBodies();

    @Override
    public Response toResponse(RateLimitExceededException exception) {
        Decision decision = exception.decision();
        Tollgate tollgate = CDI.current().select(Tollgate.class).get();
        RequestRecord record = tollgate.requests().current();
        List<RuleCheck> checks = record == null ? List.of() : record.checks();
        String key = "";
        for (RuleCheck check : checks) {
            if (check.decision() == decision) {
                key = check.key();
            }
        }
        tollgate.httpRequests().beforeTooManyRequests();
        return Responses.tooManyRequests(tollgate.config(), decision, key, checks, bodies, exception);
    }
}
