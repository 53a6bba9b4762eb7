package io.tollgate;

import java.time.Instant;
import java.util.Objects;

/**
 * An operator lifted a ban before its end, through {@link RateLimitAdmin#liftBan} or the admin resource: fired once
 * per ban lifted, on the member where it was asked. A call for a key without a ban lifts nothing and fires nothing;
 * a ban that simply runs out fires nothing either (it ends on each member as its clock passes
 * {@link RateLimitBanned#until()}, which the {@link RateLimitBanned} event already told).
 *
 * @param rule    the name of the rule whose ban was lifted
 * @param keyHash the SHA-256 of the bucket key within the rule, as {@link RateLimitBanned#keyHash()} has it
 * @param time    when the event was fired
 */
public record RateLimitBanLifted(String rule, String keyHash, Instant time) implements RateLimitEvent {

    /** @throws NullPointerException if any component is {@code null} */
    public RateLimitBanLifted {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(keyHash, "keyHash");
        Objects.requireNonNull(time, "time");
    }
}
