package io.tollgate;

import java.time.Instant;
import java.util.Objects;

/**
 * A key's current ban by a rule (its {@code ban-after} and {@code ban-for}), as {@link RateLimitAdmin#bans} lists
 * it. Immutable.
 *
 * @param rule    the rule's name
 * @param keyHash the SHA-256 of the banned key (its UTF-8) in base64url without padding, as events name it: never the key
 * @param until   when the ban ends
 */
public record KeyBan(String rule, String keyHash, Instant until) {

    /** @throws NullPointerException if a component is {@code null} */
    public KeyBan {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(keyHash, "keyHash");
        Objects.requireNonNull(until, "until");
    }
}
