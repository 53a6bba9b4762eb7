package io.tollgate;

/**
 * A call Tollgate refused: the base type of its refusals, for an application that handles them all in one place.
 * A refusal is an expected outcome, not a failure: its stack trace is not filled in. Tollgate answers it in a JAX-RS
 * application with {@link #status()} and an {@code application/problem+json} body (which a
 * {@link io.tollgate.jaxrs.RefusalBody} bean may replace).
 *
 * <p>The subclasses say why: {@link RateLimitExceededException} (a rule denied the call, or the key is banned),
 * {@link MissingKeyException} (the request lacks a part of a rule's key) and {@link InvalidCostException} (the
 * request's cost cannot be charged). None of them has charged the refused call anything.
 */
public abstract class RateLimitRefusedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String rule;
    private final int status;

    /**
     * @param rule    the name of the rule that refused the call, or {@code null} if not known
     * @param status  the HTTP status Tollgate answers the refusal with
     * @param message the message
     */
    protected RateLimitRefusedException(String rule, int status, String message) {
        super(message, null, false, false);
        this.rule = rule;
        this.status = status;
    }

    /** @return the name of the rule that refused the call, or {@code null} if not known */
    public String rule() {
        return rule;
    }

    /** @return the HTTP status Tollgate answers the refusal with: 429 (or a ban's {@code ban-status}), or 400 */
    public int status() {
        return status;
    }
}
