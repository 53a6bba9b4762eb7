package io.tollgate.internal.jaxrs;

import io.tollgate.Decision;
import io.tollgate.internal.config.TollgateConfig;
import io.tollgate.internal.http.ProblemBodies;
import io.tollgate.internal.http.RateLimitHeaders;
import io.tollgate.internal.http.RetryAfter;
import io.tollgate.internal.limiter.RuleCheck;
import io.tollgate.internal.request.InvalidCostException;
import io.tollgate.internal.request.MissingKeyException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.util.List;

/** The 429 and 400 responses, and the headers of allowed ones. */
final class Responses {

    private Responses() {
    }

    static Response tooManyRequests(TollgateConfig config, RuleCheck denial, List<RuleCheck> checks) {
        return tooManyRequests(config, denial.decision(), denial.key(), checks);
    }

    static Response tooManyRequests(TollgateConfig config, Decision decision, String clientKey, List<RuleCheck> checks) {
        long retryAfter = RetryAfter.seconds(decision, clientKey, config.retryAfterJitter());
        Response.ResponseBuilder response = Response.status(Response.Status.TOO_MANY_REQUESTS)
                .header(HttpHeaders.RETRY_AFTER, Long.toString(retryAfter))
                .type(ProblemBodies.MEDIA_TYPE)
                .entity(ProblemBodies.tooManyRequests(decision, retryAfter));
        RateLimitHeaders.write(config.headerStyle(), checks, response::header);
        return response.build();
    }

    static Response invalidCost(InvalidCostException e) {
        return badRequest(ProblemBodies.invalidCost(e));
    }

    static Response missingKey(MissingKeyException e) {
        return badRequest(ProblemBodies.missingKey(e));
    }

    private static Response badRequest(String body) {
        return Response.status(Response.Status.BAD_REQUEST).type(ProblemBodies.MEDIA_TYPE).entity(body).build();
    }

    /** Adds the rate-limit headers of {@code checks} that the response does not carry yet. */
    static void addHeaders(TollgateConfig config, List<RuleCheck> checks, MultivaluedMap<String, Object> headers) {
        RateLimitHeaders.write(config.headerStyle(), checks, (name, value) -> {
            if (!headers.containsKey(name)) {
                headers.add(name, value);
            }
        });
    }
}
