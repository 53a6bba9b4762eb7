package io.tollgate;

import java.time.Instant;
import java.util.Objects;

/**
 * An operator reset a bucket, through {@link RateLimitAdmin#reset} or the admin resource: fired once per reset the
 * store carried out, on the member where it was asked, whether or not the store held a bucket of the key
 * ({@link #found()}). A reset the store failed to carry out fires nothing. Other members, which drop what they
 * remember of the key as they hear of it, fire nothing.
 *
 * @param rule    the name of the rule whose bucket was reset
 * @param keyHash the SHA-256 of the bucket key within the rule, as {@link RateLimitDenied#keyHash()} has it
 * @param found   whether the store held a bucket of the key ({@link BucketStatus#found()}); {@code false} for a key
 *                never charged, or named otherwise than the rule builds it
 * @param time    when the event was fired
 */
public record RateLimitReset(String rule, String keyHash, boolean found, Instant time) implements RateLimitEvent {

    /** @throws NullPointerException if any component is {@code null} */
    public RateLimitReset {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(keyHash, "keyHash");
        Objects.requireNonNull(time, "time");
    }
}
