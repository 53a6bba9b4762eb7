package io.tollgate;

/**
 * Thrown when a request lacks a part of a rule's key (a header, a claim, ...) and the rule refuses such requests
 * ({@code on-missing-key=reject}): Tollgate answers it with {@code 400 Bad Request}, and a {@link RateLimited} method
 * called outside an HTTP request throws it to its caller. Nothing has been charged, to this rule or any other.
 */
public class MissingKeyException extends RateLimitRefusedException {

    private static final long serialVersionUID = 1L;

    /** The HTTP status Tollgate answers it with. */
    public static final int STATUS = 400;

    private final String part;

    /**
     * @param rule    the rule whose key it is
     * @param part    the part the request lacks, e.g. {@code header:x-api-key}
     * @param message the message, naming the rule and the part
     */
    public MissingKeyException(String rule, String part, String message) {
        super(rule, STATUS, message);
        this.part = part;
    }

    /** A copy of {@code refused}, for a subclass that says more about how it travels (an EJB application exception). */
    protected MissingKeyException(MissingKeyException refused) {
        this(refused.rule(), refused.part, refused.getMessage());
    }

    /** @return the part the request lacks, e.g. {@code header:x-api-key} */
    public String part() {
        return part;
    }
}
