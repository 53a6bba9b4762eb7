package io.tollgate;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One client's bucket of one rule, as {@link RateLimitAdmin} read it. Immutable.
 *
 * @param rule      the rule's name
 * @param keyHash   the SHA-256 of the key (its UTF-8) in base64url without padding, as events name it: never the key
 * @param limits    per limit of the rule, in configuration order, what is left; empty when the store did not answer
 * @param fromStore   {@code true} if the store answered (a bucket it does not hold is full); {@code false} if it
 *                    failed or timed out, and nothing is known
 * @param found       {@code true} if the store held a bucket of the key: when {@link RateLimitAdmin#inspect} read it,
 *                    or, from {@link RateLimitAdmin#reset}, when the reset removed it. {@code false} if it held none (a
 *                    key never charged, a key named otherwise than its rule builds it, or a bucket dropped once full
 *                    again), or if the store failed before it could tell
 * @param bannedUntil when the key's ban by the rule ends ({@code ban-after}, {@code ban-for}), or {@code null} if it
 *                    has none; read from this member's copy of the bans, so known even when the store failed
 */
public record BucketStatus(String rule, String keyHash, List<LimitStatus> limits, boolean fromStore, boolean found,
        Instant bannedUntil) {

    /** @throws NullPointerException if a component but {@code bannedUntil} is {@code null} */
    public BucketStatus {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(keyHash, "keyHash");
        limits = List.copyOf(limits);
    }

    /**
     * A status whose {@link #found()} is taken from its limits: {@code true} if the store answered and a limit is below
     * its burst (a bucket that is not full is stored), {@code false} otherwise.
     *
     * @throws NullPointerException if a component but {@code bannedUntil} is {@code null}
     */
    public BucketStatus(String rule, String keyHash, List<LimitStatus> limits, boolean fromStore, Instant bannedUntil) {
        this(rule, keyHash, limits, fromStore,
                fromStore && limits.stream().anyMatch(limit -> limit.remaining() < limit.burst()), bannedUntil);
    }

    /** @return whether the key is banned by the rule now (its requests are refused whatever the bucket holds) */
    public boolean banned() {
        return bannedUntil != null;
    }

    /** @return {@code true} if the store answered and every limit is full */
    public boolean full() {
        return fromStore && limits.stream().allMatch(limit -> limit.remaining() == limit.burst());
    }

    /**
     * Where one limit of a bucket stands.
     *
     * @param remaining whole tokens left
     * @param burst     the limit's capacity
     * @param untilFull the time until it is full again; zero when full
     */
    public record LimitStatus(long remaining, long burst, Duration untilFull) {

        /** @throws IllegalArgumentException if a number is negative */
        public LimitStatus {
            Objects.requireNonNull(untilFull, "untilFull");
            if (remaining < 0 || burst < 0 || untilFull.isNegative()) {
                throw new IllegalArgumentException("a limit's numbers are never negative: remaining " + remaining + ", burst "
                        + burst + ", untilFull " + untilFull);
            }
        }
    }
}
