package io.tollgate.internal.request;

/**
 * A request without a part of a rule's key, refused by {@code on-missing-key=reject}: answered with 400 and
 * nothing charged; thrown as it is to a limited method called outside an HTTP request.
 */
public class MissingKeyException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String rule;
    private final String part;

    private MissingKeyException(String rule, String part, String message) {
        super(message, null, false, false);
        this.rule = rule;
        this.part = part;
    }

    /** A copy of {@code refused}, for a subclass that says more about how it travels (an EJB application exception). */
    protected MissingKeyException(MissingKeyException refused) {
        this(refused.rule, refused.part, refused.getMessage());
    }

    /**
     * @param rule     the rule whose key it is
     * @param part     the part the request lacks, e.g. {@code header:x-api-key}
     * @param inRequest whether the call came with an HTTP request
     * @return the refusal
     */
    public static MissingKeyException of(String rule, String part, boolean inRequest) {
        String needs = "Rate limit rule '" + rule + "' needs " + part + " for its key";
        return new MissingKeyException(rule, part, inRequest ? needs + ", and the request has none."
                : needs + ", and a call outside an HTTP request has none (on-missing-key=reject); give such calls "
                        + "their key with @RateLimitKey or RateLimiter.");
    }

    /** @return the rule whose key it is */
    public String rule() {
        return rule;
    }

    /** @return the part the request lacks, e.g. {@code header:x-api-key} */
    public String part() {
        return part;
    }
}
