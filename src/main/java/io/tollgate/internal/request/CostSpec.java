package io.tollgate.internal.request;

import io.tollgate.InvalidCostException;
import java.util.List;

/**
 * What a request costs: a fixed number, or a whole number read from a header or query parameter.
 * An absent value costs {@code default-cost}. A present value that is not a whole number within
 * {@code [min-cost, max-cost]} (negative, fractional, {@code NaN}, too large, sent twice) is either
 * refused ({@link InvalidCostException}, an HTTP 400) or charged {@code default-cost}, as configured.
 */
public final class CostSpec {

    private static final int MAX_SHOWN = 40;

    private final long fixed;
    private final Source source;
    private final long defaultCost;
    private final long minCost;
    private final long maxCost;
    private final boolean rejectInvalid;

    private CostSpec(long fixed, Source source, long defaultCost, long minCost, long maxCost, boolean rejectInvalid) {
        this.fixed = fixed;
        this.source = source;
        this.defaultCost = defaultCost;
        this.minCost = minCost;
        this.maxCost = maxCost;
        this.rejectInvalid = rejectInvalid;
    }

    /** A fixed cost. */
    public static CostSpec fixed(long cost, long minCost, long maxCost) {
        return new CostSpec(cost, null, cost, minCost, maxCost, true);
    }

    /**
     * A cost read from the request.
     *
     * @param sourceText    {@code header:<name>} or {@code query:<name>}
     * @param rejectInvalid {@code true} to refuse bad values, {@code false} to charge {@code defaultCost}
     * @throws IllegalArgumentException if {@code sourceText} is not such a source
     */
    public static CostSpec fromRequest(String sourceText, long defaultCost, long minCost, long maxCost, boolean rejectInvalid) {
        Source source = Source.parse(sourceText, Source.Kind.HEADER, Source.Kind.QUERY);
        if (source == null) {
            throw new IllegalArgumentException("'" + sourceText + "' is not a cost; use a whole number, header:<name> or query:<name>");
        }
        return new CostSpec(-1, source, defaultCost, minCost, maxCost, rejectInvalid);
    }

    /** @return whether the cost is read from the request */
    public boolean readsRequest() {
        return source != null;
    }

    public long defaultCost() {
        return defaultCost;
    }

    public long maxCost() {
        return maxCost;
    }

    /**
     * @param request the request, or {@code null} outside one (then the default cost applies)
     * @return the cost to charge
     * @throws InvalidCostException if the value is bad and such values are refused
     */
    public long resolve(IncomingRequest request) {
        return resolve(request, maxCost);
    }

    /**
     * @param request the request, or {@code null} outside one (then the default cost applies)
     * @param limit   the largest stated cost the request's own limits grant, if below {@code max-cost}
     * @return the cost to charge
     * @throws InvalidCostException if the value is bad and such values are refused
     */
    public long resolve(IncomingRequest request, long limit) {
        long max = Math.min(maxCost, limit);
        if (source == null) {
            return fixed;
        }
        if (request == null) {
            return defaultCost;
        }
        List<String> values = source.values(request.view());
        if (values.isEmpty()) {
            return defaultCost;
        }
        String raw = values.get(0);
        String value = trimSpaces(raw);
        String problem = values.size() > 1 ? "sent " + values.size() + " times; send it once" : check(value, max);
        if (problem == null) {
            return Long.parseLong(value);
        }
        if (rejectInvalid) {
            String shown = raw.length() > MAX_SHOWN ? raw.substring(0, MAX_SHOWN) + "..." : raw;
            throw Refusals.invalidCost(source.toString(), printable(shown), problem);
        }
        return defaultCost;
    }

    /** Only spaces and tabs, the whitespace HTTP allows around a value; control characters stay and are refused. */
    private static String trimSpaces(String value) {
        int start = 0;
        int end = value.length();
        while (start < end && (value.charAt(start) == ' ' || value.charAt(start) == '\t')) {
            start++;
        }
        while (end > start && (value.charAt(end - 1) == ' ' || value.charAt(end - 1) == '\t')) {
            end--;
        }
        return value.substring(start, end);
    }

    private String check(String value, long maxCost) {
        if (value.isEmpty()) {
            return "empty; send a whole number from " + minCost + " to " + maxCost;
        }
        boolean digits = true;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                digits = false;
                break;
            }
        }
        if (!digits) {
            if (value.startsWith("-") && value.length() > 1 && isNumber(value.substring(1))) {
                return "must not be negative";
            }
            if (isNumber(value)) {
                return "must be a whole number";
            }
            return "not a number; send a whole number from " + minCost + " to " + maxCost;
        }
        String significant = value.replaceFirst("^0+(?=.)", "");
        if (significant.length() > 18 || Long.parseLong(significant) > maxCost) {
            return "exceeds max-cost " + maxCost;
        }
        if (Long.parseLong(significant) < minCost) {
            return "must be at least " + minCost;
        }
        return null;
    }

    private static boolean isNumber(String value) {
        try {
            double d = Double.parseDouble(value);
            return !Double.isNaN(d) && !Double.isInfinite(d) && !value.endsWith("d") && !value.endsWith("f")
                    && !value.endsWith("D") && !value.endsWith("F");
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static String printable(String value) {
        StringBuilder out = new StringBuilder(value.length());
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            boolean hidden = Character.isISOControl(c) || Character.getType(c) == Character.FORMAT;
            out.append(hidden ? '?' : c);
        }
        return out.toString();
    }

    @Override
    public String toString() {
        return source == null ? Long.toString(fixed) : source.toString();
    }
}
