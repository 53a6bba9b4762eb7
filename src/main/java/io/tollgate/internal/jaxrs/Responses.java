package io.tollgate.internal.jaxrs;

import io.tollgate.Decision;
import io.tollgate.InvalidCostException;
import io.tollgate.MissingKeyException;
import io.tollgate.RateLimitExceededException;
import io.tollgate.RateLimitRefusedException;
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

/** The 429 and 400 responses (their bodies by {@link RefusalBodies}), and the headers of allowed ones. */
final class Responses {

    private Responses() {
    }

    static Response tooManyRequests(TollgateConfig config, RuleCheck denial, List<RuleCheck> checks, RefusalBodies bodies) {
        return tooManyRequests(config, denial.decision(), denial.key(), checks, bodies, null);
    }

    /**
     * @param thrown the refusal thrown, or {@code null} for one the filter found (made if the application's body asks)
     * @return the 429 of a denial, or the answer of a ban: its rule's {@code ban-status}
     */
    static Response tooManyRequests(TollgateConfig config, Decision decision, String clientKey, List<RuleCheck> checks,
            RefusalBodies bodies, RateLimitExceededException thrown) {
        long retryAfter = RetryAfter.seconds(decision, clientKey, config.retryAfterJitter());
        int status = status(config, decision);
        Response.ResponseBuilder response = Response.status(status);
        bodies.write(response, () -> thrown != null ? thrown : new RateLimitExceededException(decision, status),
                decision.banned() ? ProblemBodies.banned(decision, retryAfter, status) : ProblemBodies.tooManyRequests(decision, retryAfter));
        response.header(HttpHeaders.RETRY_AFTER, Long.toString(retryAfter));
        RateLimitHeaders.write(config.headerStyle(), checks, response::header);
        return response.build();
    }

    /** @return 429, or the {@code ban-status} of the rule that banned the key */
    static int status(TollgateConfig config, Decision decision) {
        RuleConfig rule = decision.banned() ? config.rule(decision.rule()) : null;
        return rule != null && rule.ban() != null ? rule.ban().status() : RateLimitExceededException.STATUS;
    }

    static Response invalidCost(InvalidCostException e, RefusalBodies bodies) {
        return badRequest(e, ProblemBodies.invalidCost(e), bodies);
    }

    static Response missingKey(MissingKeyException e, RefusalBodies bodies) {
        return badRequest(e, ProblemBodies.missingKey(e), bodies);
    }

    private static Response badRequest(RateLimitRefusedException e, String problem, RefusalBodies bodies) {
        Response.ResponseBuilder response = Response.status(e.status());
        bodies.write(response, () -> e, problem);
        return response.build();
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
