package io.tollgate;

import java.time.Instant;
import java.util.Objects;

/**
 * The store did not answer a decision: the rule's {@code on-store-failure} policy answered it, with
 * nothing charged. When that answer is a denial, a {@link RateLimitDenied} follows this event.
 *
 * @param rule     the name of the rule whose decision failed
 * @param keyHash  the SHA-256 of the bucket key within the rule, as {@link RateLimitDenied#keyHash()} has it
 * @param cause    whether the store timed out or failed
 * @param decision what the policy answered ({@link Decision#storeUnavailable()} is {@code true})
 * @param time     when the event was fired
 */
public record RateLimitStoreFailed(String rule, String keyHash, Cause cause, Decision decision, Instant time)
        implements RateLimitEvent {

    /** Why the store gave no answer. */
    public enum Cause {
        /** It did not answer within {@code tollgate.store.timeout}. */
        TIMEOUT,
        /** It answered with an error, or could not be asked. */
        ERROR
    }

    /** @throws NullPointerException if any component is {@code null} */
    public RateLimitStoreFailed {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(keyHash, "keyHash");
        Objects.requireNonNull(cause, "cause");
        Objects.requireNonNull(decision, "decision");
        Objects.requireNonNull(time, "time");
    }
}
