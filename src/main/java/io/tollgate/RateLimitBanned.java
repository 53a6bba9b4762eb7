package io.tollgate;

import java.time.Instant;
import java.util.Objects;

/**
 * A rule banned a key after repeated denials ({@code ban-after}): until {@link #until()} every request of that key
 * to the rule is refused on every member, without its bucket being charged. Fired once per ban, on the member whose
 * denial started it, after that denial's {@link RateLimitDenied}. The requests a ban refuses each fire a
 * {@link RateLimitDenied} whose decision is {@link Decision#banned()}.
 *
 * @param rule    the name of the rule that banned the key
 * @param keyHash the SHA-256 of the bucket key within the rule, as {@link RateLimitDenied#keyHash()} has it
 * @param until   when the ban ends (this server's clock)
 * @param time    when the event was fired
 */
public record RateLimitBanned(String rule, String keyHash, Instant until, Instant time) implements RateLimitEvent {

    /** @throws NullPointerException if any component is {@code null} */
    public RateLimitBanned {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(keyHash, "keyHash");
        Objects.requireNonNull(until, "until");
        Objects.requireNonNull(time, "time");
    }
}
