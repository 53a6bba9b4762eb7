package io.tollgate.internal.request;

import io.tollgate.InvalidCostException;
import io.tollgate.MissingKeyException;

/** The refusals of a request's key and cost, with their messages. */
public final class Refusals {

    private Refusals() {
    }

    /**
     * @param rule      the rule whose key it is
     * @param part      the part the request lacks, e.g. {@code header:x-api-key}
     * @param inRequest whether the call came with an HTTP request
     * @return the refusal
     */
    public static MissingKeyException missingKey(String rule, String part, boolean inRequest) {
        String needs = "Rate limit rule '" + rule + "' needs " + part + " for its key";
        return new MissingKeyException(rule, part, inRequest ? needs + ", and the request has none."
                : needs + ", and a call outside an HTTP request has none (on-missing-key=reject); give such calls "
                        + "their key with @RateLimitKey or RateLimiter.");
    }

    /** @return the refusal of {@code value} from {@code source}, for {@code reason}, its rule not known yet */
    static InvalidCostException invalidCost(String source, String value, String reason) {
        return new InvalidCostException(null, source, value, source + " = '" + value + "': " + reason);
    }
}
