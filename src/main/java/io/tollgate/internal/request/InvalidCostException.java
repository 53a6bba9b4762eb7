package io.tollgate.internal.request;

/** A request's cost value that cannot be charged; answered with 400 and nothing charged. */
public class InvalidCostException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String rule;
    private final String source;
    private final String value;

    InvalidCostException(String source, String value, String reason) {
        this(null, source, value, source + " = '" + value + "': " + reason);
    }

    private InvalidCostException(String rule, String source, String value, String message) {
        super(message, null, false, false);
        this.rule = rule;
        this.source = source;
        this.value = value;
    }

    /** A copy of {@code refused}, for a subclass that says more about how it travels (an EJB application exception). */
    protected InvalidCostException(InvalidCostException refused) {
        this(refused.rule, refused.source, refused.value, refused.getMessage());
    }

    /** @return this exception, naming the rule whose cost it was */
    public InvalidCostException forRule(String rule) {
        return new InvalidCostException(rule, source, value, getMessage());
    }

    /** @return the rule whose cost was bad, or {@code null} if not known */
    public String rule() {
        return rule;
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
