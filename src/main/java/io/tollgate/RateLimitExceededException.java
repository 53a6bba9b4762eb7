package io.tollgate;

import jakarta.ejb.ApplicationException;
import java.time.Duration;
import java.util.Objects;

/**
 * Thrown by the {@link RateLimited} interceptor when a rule denies a call; carries the
 * {@link Decision}. Tollgate maps it to {@code 429 Too Many Requests} in JAX-RS applications.
 * Its stack trace is not filled in: it is an expected outcome on a hot path. It is an EJB application
 * exception: a denial on an enterprise bean reaches its caller as it is, is not logged as an error, leaves the
 * bean instance in service and does not mark the caller's transaction for rollback.
 */
@ApplicationException(rollback = false)
public class RateLimitExceededException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient Decision decision;

    /** @param decision the denial */
    public RateLimitExceededException(Decision decision) {
        super("Rate limit exceeded: rule '" + decision.rule() + "', retry after " + decision.retryAfterSeconds() + " s",
                null, false, false);
        this.decision = Objects.requireNonNull(decision, "decision");
    }

    /** @return the denial */
    public Decision decision() {
        return decision;
    }

    /** @return the exact wait until the call could succeed ({@link Decision#retryAfter()}) */
    public Duration retryAfter() {
        return decision.retryAfter();
    }
}
