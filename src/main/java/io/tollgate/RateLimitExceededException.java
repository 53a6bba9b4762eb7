package io.tollgate;

import jakarta.ejb.ApplicationException;
import java.time.Duration;
import java.util.Objects;

/**
 * Thrown by the {@link RateLimited} interceptor when a rule denies a call, or the call's key is banned by a rule
 * ({@code ban-after}); carries the {@link Decision}. Nothing has been charged for the refused call. Tollgate answers
 * it in JAX-RS applications with {@code 429 Too Many Requests} (a ban: its rule's {@code ban-status}), its
 * {@code Retry-After} and rate-limit headers. Its stack trace is not filled in: it is an expected outcome on a hot
 * path. It is an EJB application exception: a denial on an enterprise bean reaches its caller as it is, is not
 * logged as an error, leaves the bean instance in service and does not mark the caller's transaction for rollback.
 */
@ApplicationException(rollback = false)
public class RateLimitExceededException extends RateLimitRefusedException {

    private static final long serialVersionUID = 1L;

    /** The HTTP status Tollgate answers a denial with, and a ban by default. */
    public static final int STATUS = 429;

    private final transient Decision decision;

    /**
     * A refusal answered with {@value #STATUS}; Tollgate answers a ban ({@link Decision#banned()}) with its rule's
     * {@code ban-status} whatever {@link #status()} says.
     *
     * @param decision the denial
     */
    public RateLimitExceededException(Decision decision) {
        this(decision, STATUS);
    }

    /**
     * @param decision the denial
     * @param status   the HTTP status it is answered with: 429, or a ban's {@code ban-status}
     */
    public RateLimitExceededException(Decision decision, int status) {
        super(Objects.requireNonNull(decision, "decision").rule(), status,
                "Rate limit exceeded: rule '" + decision.rule() + "', retry after " + decision.retryAfterSeconds() + " s");
        this.decision = decision;
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
