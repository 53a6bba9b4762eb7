package io.tollgate;

/**
 * Thrown when a request's cost (a rule's {@code cost=header:<name>} or {@code query:<name>}) is not a whole number
 * the rule can charge, and the rule refuses such requests: Tollgate answers it with {@code 400 Bad Request}, and a
 * {@link RateLimited} method throws it to its caller. Nothing has been charged, to this rule or any other.
 */
public class InvalidCostException extends RateLimitRefusedException {

    private static final long serialVersionUID = 1L;

    /** The HTTP status Tollgate answers it with. */
    public static final int STATUS = 400;

    private final String source;
    private final String value;

    /**
     * @param rule    the rule whose cost it is, or {@code null} if not known yet
     * @param source  where the cost came from, e.g. {@code header:x-request-weight}
     * @param value   the offending value, as sent
     * @param message the message, naming the source, the value and what is wrong with it
     */
    public InvalidCostException(String rule, String source, String value, String message) {
        super(rule, STATUS, message);
        this.source = source;
        this.value = value;
    }

    /** A copy of {@code refused}, for a subclass that says more about how it travels (an EJB application exception). */
    protected InvalidCostException(InvalidCostException refused) {
        this(refused.rule(), refused.source, refused.value, refused.getMessage());
    }

    /** @return a copy of this refusal naming the rule whose cost it was */
    public InvalidCostException forRule(String rule) {
        return new InvalidCostException(rule, source, value, getMessage());
    }

    /** @return where the cost came from, e.g. {@code header:x-request-weight} */
    public String source() {
        return source;
    }

    /** @return the offending value, as sent */
    public String value() {
        return value;
    }
}
