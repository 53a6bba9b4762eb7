package io.tollgate.internal.http;

import io.tollgate.Decision;
import io.tollgate.InvalidCostException;
import io.tollgate.MissingKeyException;

/** RFC 9457 {@code application/problem+json} bodies for 429, 403 (a ban) and 400 answers. */
public final class ProblemBodies {

    /** The media type of the bodies. */
    public static final String MEDIA_TYPE = "application/problem+json";
    /** The problem type of a rate-limit denial (draft-ietf-httpapi-ratelimit-headers-11). */
    public static final String QUOTA_EXCEEDED = "https://iana.org/assignments/http-problem-types#quota-exceeded";
    /** The problem type of a denial because the store could not be asked ({@code on-store-failure=deny}). */
    public static final String REDUCED_CAPACITY = "https://iana.org/assignments/http-problem-types#temporary-reduced-capacity";
    /** The problem type of a key banned after repeated denials ({@code ban-after}). */
    public static final String BANNED = "urn:tollgate:problem:banned";
    /** The problem type of a cost value that cannot be charged. */
    public static final String INVALID_COST = "urn:tollgate:problem:invalid-cost";
    /** The problem type of a request without a part of a rule's key ({@code on-missing-key=reject}). */
    public static final String MISSING_KEY = "urn:tollgate:problem:missing-key";

    private ProblemBodies() {
    }

    /**
     * @return the body of a 429: the draft's problem type with {@code violated-policies} (the limit that
     *         denied, named as in {@code RateLimit-Policy}), and the rule, its burst, the tokens left and the wait
     */
    public static String tooManyRequests(Decision decision, long retryAfterSeconds) {
        boolean unavailable = decision.storeUnavailable();
        String detail = unavailable
                ? "Rate limit rule '" + decision.rule() + "' could not be checked and denies requests until it can."
                : "Rate limit rule '" + decision.rule() + "' allows " + decision.burst() + " at once; "
                        + decision.remaining() + " left, " + decision.cost() + " asked for. Retry after " + retryAfterSeconds + " s.";
        String policy = unavailable ? decision.rule() : RateLimitHeaders.policyId(decision.rule(), decision.limitIndex());
        return new StringBuilder(320).append("{\"type\":").append(quote(unavailable ? REDUCED_CAPACITY : QUOTA_EXCEEDED))
                .append(",\"title\":").append(quote(unavailable ? "Temporary Reduced Capacity" : "Quota Exceeded"))
                .append(",\"status\":429,\"detail\":").append(quote(detail))
                .append(",\"violated-policies\":[").append(quote(policy)).append(']')
                .append(",\"rule\":").append(quote(decision.rule()))
                .append(",\"burst\":").append(decision.burst())
                .append(",\"remaining\":").append(decision.remaining())
                .append(",\"retryAfter\":").append(retryAfterSeconds).append('}').toString();
    }

    /**
     * @param status the rule's {@code ban-status}: 429 or 403
     * @return the body of the answer to a banned key: the ban's problem type, the rule, and the time left of the ban
     */
    public static String banned(Decision decision, long retryAfterSeconds, int status) {
        String detail = "Rate limit rule '" + decision.rule() + "' has banned this client after repeated denials. Retry after "
                + retryAfterSeconds + " s.";
        return new StringBuilder(320).append("{\"type\":").append(quote(BANNED))
                .append(",\"title\":\"Temporarily Banned\",\"status\":").append(status)
                .append(",\"detail\":").append(quote(detail))
                .append(",\"violated-policies\":[").append(quote(decision.rule())).append(']')
                .append(",\"rule\":").append(quote(decision.rule()))
                .append(",\"burst\":").append(decision.burst())
                .append(",\"remaining\":0")
                .append(",\"retryAfter\":").append(retryAfterSeconds).append('}').toString();
    }

    /** @return the body of a 400 for a bad cost */
    public static String invalidCost(InvalidCostException e) {
        return badRequest(INVALID_COST, e.getMessage(), e.rule(), e.source());
    }

    /** @return the body of a 400 for a request without a part of a rule's key, naming the rule and the part */
    public static String missingKey(MissingKeyException e) {
        return badRequest(MISSING_KEY, e.getMessage(), e.rule(), e.part());
    }

    private static String badRequest(String type, String detail, String rule, String source) {
        return new StringBuilder(256).append("{\"type\":").append(quote(type))
                .append(",\"title\":\"Bad Request\",\"status\":400,\"detail\":").append(quote(detail))
                .append(rule == null ? "" : ",\"rule\":" + quote(rule))
                .append(",\"source\":").append(quote(source)).append('}').toString();
    }

    static String quote(String text) {
        StringBuilder out = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || c == 0x7f || (c >= 0xd800 && c <= 0xdfff && !validSurrogate(text, i))) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }

    private static boolean validSurrogate(String text, int i) {
        char c = text.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1));
        }
        return i > 0 && Character.isHighSurrogate(text.charAt(i - 1));
    }
}
