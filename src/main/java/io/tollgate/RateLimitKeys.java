package io.tollgate;

import java.util.List;
import java.util.Objects;

/**
 * Bucket keys as rules build them, to name a bucket from code ({@link RateLimitAdmin}, {@link RateLimitRules#override},
 * {@link RateLimiter}) exactly as the rule's requests name it.
 *
 * <p>A rule whose {@code key} has one part keys a request by that part's value as it is ({@code key=ip}:
 * {@code 203.0.113.7}). A rule whose {@code key} has several ({@code header:X-Api-Key, path}) keys it by the parts'
 * values in the order of the {@code key} attribute, each with {@code %} written {@code %25} and {@code ,} written
 * {@code %2C}, joined by {@code ,}: the API key {@code k3y} on {@code /items/42} is {@code k3y,/items/42}, and
 * {@code 50%off} on {@code /items/a,b} is {@code 50%25off,/items/a%2Cb}. A part the request lacks is empty
 * ({@code ,/items/42}). Distinct values never give the same key.
 */
public final class RateLimitKeys {

    private RateLimitKeys() {
    }

    /**
     * @param parts the values of the rule's key parts, in the order of its {@code key} attribute; empty for a part the
     *              request lacks
     * @return the bucket key the rule builds of them: a single part as it is, several escaped and joined by {@code ,}
     * @throws IllegalArgumentException if there is no part
     * @throws NullPointerException     if a part is {@code null}
     */
    public static String composite(String... parts) {
        if (parts.length == 0) {
            throw new IllegalArgumentException("a key has at least one part");
        }
        if (parts.length == 1) {
            return Objects.requireNonNull(parts[0], "part 1 is null; a part a request lacks is empty");
        }
        StringBuilder key = new StringBuilder();
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i];
            if (part == null) {
                throw new NullPointerException("part " + (i + 1) + " is null; a part a request lacks is empty");
            }
            if (i > 0) {
                key.append(',');
            }
            appendEscaped(key, part);
        }
        return key.toString();
    }

    /** @see #composite(String...) */
    public static String composite(List<String> parts) {
        return composite(parts.toArray(new String[0]));
    }

    private static void appendEscaped(StringBuilder key, String part) {
        for (int i = 0; i < part.length(); i++) {
            char c = part.charAt(i);
            if (c == '%') {
                key.append("%25");
            } else if (c == ',') {
                key.append("%2C");
            } else {
                key.append(c);
            }
        }
    }
}
