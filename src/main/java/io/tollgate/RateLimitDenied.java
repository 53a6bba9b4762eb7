package io.tollgate;

import java.time.Instant;
import java.util.Objects;

/**
 * A request was denied, or would have been by a rule in shadow mode ({@link #shadow()}): one event
 * for each decision that is a 429 or a {@link RateLimitExceededException}, whether the store decided
 * or the rule's {@code on-store-failure} policy did ({@link Decision#storeUnavailable()}). Allowed
 * requests fire nothing.
 *
 * @param rule     the name of the rule that denied
 * @param keyHash  the SHA-256 of the bucket key within the rule (its UTF-8; a composite key in the form
 *                 {@link RateLimitKeys#composite} gives), in base64url without padding: the client's key itself
 *                 never leaves Tollgate
 * @param decision the denial
 * @param time     when the event was fired
 */
public record RateLimitDenied(String rule, String keyHash, Decision decision, Instant time) implements RateLimitEvent {

    /** @throws NullPointerException if any component is {@code null} */
    public RateLimitDenied {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(keyHash, "keyHash");
        Objects.requireNonNull(decision, "decision");
        Objects.requireNonNull(time, "time");
    }

    /** @return {@code true} if the rule runs in shadow mode: the request was let through ({@link Decision#shadowDenied()}) */
    public boolean shadow() {
        return decision.shadowDenied();
    }
}
