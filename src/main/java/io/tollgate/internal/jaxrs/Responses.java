package io.tollgate.internal.jaxrs;

import io.tollgate.Decision;
import io.tollgate.InvalidCostException;
import io.tollgate.MissingKeyException;
import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.config.TollgateConfig;
import io.tollgate.internal.http.ProblemBodies;
import io.tollgate.internal.http.RateLimitHeaders;
import io.tollgate.internal.http.RetryAfter;
import io.tollgate.internal.limiter.RuleCheck;
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

    /** @return the 429 of a denial, or the answer of a ban: its rule's {@code ban-status} */
    static Response tooManyRequests(TollgateConfig config, Decision decision, String clientKey, List<RuleCheck> checks) {
        long retryAfter = RetryAfter.seconds(decision, clientKey, config.retryAfterJitter());
        int status = status(config, decision);
        Response.ResponseBuilder response = Response.status(status)
                .header(HttpHeaders.RETRY_AFTER, Long.toString(retryAfter))
                .type(ProblemBodies.MEDIA_TYPE)
                .entity(decision.banned() ? ProblemBodies.banned(decision, retryAfter, status)
                        : ProblemBodies.tooManyRequests(decision, retryAfter));
        RateLimitHeaders.write(config.headerStyle(), checks, response::header);
        return response.build();
    }

    /** @return 429, or the {@code ban-status} of the rule that banned the key */
    static int status(TollgateConfig config, Decision decision) {
        RuleConfig rule = decision.banned() ? config.rule(decision.rule()) : null;
        return rule != null && rule.ban() != null ? rule.ban().status() : Response.Status.TOO_MANY_REQUESTS.getStatusCode();
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
