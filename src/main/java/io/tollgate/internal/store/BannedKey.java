package io.tollgate.internal.store;

import java.time.Instant;

/**
 * One current ban of a rule, as an operator sees it.
 *
 * @param keyHash the SHA-256 of the banned bucket key, in base64url without padding, as events give it
 * @param until   when the ban ends
 */
public record BannedKey(String keyHash, Instant until) {
}
