package io.tollgate;

import java.util.Objects;

/**
 * A key among the most denied of a rule on this member in the last minute, as {@link RateLimitAdmin#topDenied}
 * reports it. Immutable.
 *
 * <p>The count comes from a summary of fixed size (Space-Saving), so it may be above the key's true number of
 * denials, never below it: the true number is between {@code count - maxError} and {@code count}. A
 * {@code maxError} of 0 means the count is exact.
 *
 * @param keyHash  the SHA-256 of the key (its UTF-8) in base64url without padding, as events name it: never the key
 * @param count    the key's denials in the window, at least its true number
 * @param maxError how far {@code count} may be above the true number, from 0 to {@code count}
 */
public record DeniedKey(String keyHash, long count, long maxError) {

    /** @throws IllegalArgumentException if {@code count} is below 1 or {@code maxError} not within 0 to {@code count} */
    public DeniedKey {
        Objects.requireNonNull(keyHash, "keyHash");
        if (count < 1 || maxError < 0 || maxError > count) {
            throw new IllegalArgumentException("a denied key's count is at least 1 and its error from 0 to the count: count "
                    + count + ", maxError " + maxError);
        }
    }

    /** @return the fewest denials the key certainly had in the window: {@code count - maxError} */
    public long guaranteed() {
        return count - maxError;
    }
}
