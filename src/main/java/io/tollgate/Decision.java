package io.tollgate;

import java.time.Duration;
import java.util.Objects;

/**
 * The answer to one rate-limit check: whether the request may proceed, and the numbers a client
 * needs to pace itself. Immutable and safe to share.
 *
 * <p>A rule may hold several limits; a decision reports the one that matters most: for an
 * allowed request the limit with the fewest tokens left, for a denied one the limit that makes
 * the caller wait longest.
 *
 * <p>Tollgate makes decisions; applications read them. Tests of application code that need one build it
 * with {@link #builder(String)}.
 *
 * @param rule              the name of the rule that decided
 * @param allowed           {@code true} if the request may proceed; its cost has then been charged
 * @param cost              the tokens the request asked for
 * @param remaining         whole tokens left in the reported limit after this decision
 * @param burst             the capacity (burst) of the reported limit
 * @param limitIndex        the position of the reported limit within its rule, from 0 in configuration order
 * @param resetAfterMicros  microseconds until the reported limit is full again
 * @param retryAfterMicros  for a denial, the exact microseconds until the request's cost is available in every
 *                          limit of the rule; 0 when allowed (but for {@code shadowDenied}: the wait enforcement
 *                          would have imposed)
 * @param shadowDenied      {@code true} if the rule runs in shadow mode and would have denied this request;
 *                          {@code allowed} is then {@code true}
 * @param storeUnavailable  {@code true} if the store failed or timed out: nothing was charged and {@code allowed}
 *                          follows the rule's {@code on-store-failure} policy
 * @param banned            {@code true} if the key is banned by the rule ({@code ban-after}) after repeated denials:
 *                          {@code allowed} is then {@code false}, nothing was charged, and {@code retryAfterMicros} is
 *                          the time left of the ban
 */
public record Decision(String rule, boolean allowed, long cost, long remaining, long burst, int limitIndex,
        long resetAfterMicros, long retryAfterMicros, boolean shadowDenied, boolean storeUnavailable, boolean banned) {

    private static final long MICROS_PER_SECOND = 1_000_000L;

    /**
     * @throws NullPointerException     if {@code rule} is {@code null}
     * @throws IllegalArgumentException if a number is negative, or a shadow denial is not allowed
     */
    public Decision {
        Objects.requireNonNull(rule, "rule");
        if (cost < 0 || remaining < 0 || burst < 0 || limitIndex < 0 || resetAfterMicros < 0 || retryAfterMicros < 0) {
            throw new IllegalArgumentException("a decision's numbers are never negative: cost " + cost + ", remaining "
                    + remaining + ", burst " + burst + ", limitIndex " + limitIndex + ", resetAfterMicros "
                    + resetAfterMicros + ", retryAfterMicros " + retryAfterMicros);
        }
        if (shadowDenied && !allowed) {
            throw new IllegalArgumentException("a shadow denial lets the request proceed: allowed must be true");
        }
        if (banned && allowed) {
            throw new IllegalArgumentException("a banned key is denied: allowed must be false");
        }
    }

    /** A decision that is no ban: the canonical constructor with {@code banned} {@code false}. */
    public Decision(String rule, boolean allowed, long cost, long remaining, long burst, int limitIndex,
            long resetAfterMicros, long retryAfterMicros, boolean shadowDenied, boolean storeUnavailable) {
        this(rule, allowed, cost, remaining, burst, limitIndex, resetAfterMicros, retryAfterMicros, shadowDenied, storeUnavailable,
                false);
    }

    /** @return a builder of a decision of {@code rule}: allowed, of cost 1, every other number 0 until set */
    public static Builder builder(String rule) {
        return new Builder(rule);
    }

    /** @return the time until the reported limit is full again */
    public Duration resetAfter() {
        return micros(resetAfterMicros);
    }

    /** @return {@link #resetAfter()} in whole seconds, rounded up */
    public long resetAfterSeconds() {
        return ceilSeconds(resetAfterMicros);
    }

    /**
     * @return for a denial, the exact time until the request's cost is available in every limit
     *         of the rule; {@link Duration#ZERO} when allowed
     */
    public Duration retryAfter() {
        return micros(retryAfterMicros);
    }

    /** @return {@link #retryAfter()} in whole seconds, rounded up (no jitter) */
    public long retryAfterSeconds() {
        return ceilSeconds(retryAfterMicros);
    }

    private static Duration micros(long micros) {
        return Duration.ofSeconds(micros / MICROS_PER_SECOND, (micros % MICROS_PER_SECOND) * 1_000L);
    }

    private static long ceilSeconds(long micros) {
        return Math.floorDiv(micros + MICROS_PER_SECOND - 1, MICROS_PER_SECOND);
    }

    @Override
    public String toString() {
        return "Decision{rule=" + rule + ", " + (allowed ? "allowed" : "denied") + ", cost=" + cost
                + ", remaining=" + remaining + ", burst=" + burst + ", limitIndex=" + limitIndex
                + ", resetAfter=" + resetAfter() + ", retryAfter=" + retryAfter()
                + (shadowDenied ? ", shadowDenied" : "") + (storeUnavailable ? ", storeUnavailable" : "")
                + (banned ? ", banned" : "") + '}';
    }

    /** Builds a {@link Decision} by naming its numbers; what is not set is 0 ({@code cost}: 1, {@code allowed}: true). */
    public static final class Builder {

        private final String rule;
        private boolean allowed = true;
        private long cost = 1;
        private long remaining;
        private long burst;
        private int limitIndex;
        private long resetAfterMicros;
        private long retryAfterMicros;
        private boolean shadowDenied;
        private boolean storeUnavailable;
        private boolean banned;

        private Builder(String rule) {
            this.rule = rule;
        }

        /** @return this builder, for a request that may proceed ({@code true}) or is denied */
        public Builder allowed(boolean allowed) {
            this.allowed = allowed;
            return this;
        }

        /** @return this builder, for a request that asked for {@code cost} tokens */
        public Builder cost(long cost) {
            this.cost = cost;
            return this;
        }

        /** @return this builder, with {@code remaining} whole tokens left in the reported limit */
        public Builder remaining(long remaining) {
            this.remaining = remaining;
            return this;
        }

        /** @return this builder, reporting the limit at {@code limitIndex} in its rule, of capacity {@code burst} */
        public Builder burst(long burst, int limitIndex) {
            this.burst = burst;
            this.limitIndex = limitIndex;
            return this;
        }

        /** @return this builder, with the reported limit full again after {@code resetAfter} (whole microseconds) */
        public Builder resetAfter(Duration resetAfter) {
            this.resetAfterMicros = toMicros(resetAfter);
            return this;
        }

        /** @return this builder, with the cost available in every limit after {@code retryAfter} (whole microseconds) */
        public Builder retryAfter(Duration retryAfter) {
            this.retryAfterMicros = toMicros(retryAfter);
            return this;
        }

        /** @return this builder, for a rule in shadow mode that would have denied the request (which it allows) */
        public Builder shadowDenied(boolean shadowDenied) {
            this.shadowDenied = shadowDenied;
            return this;
        }

        /** @return this builder, for an answer given by the rule's on-store-failure policy, nothing charged */
        public Builder storeUnavailable(boolean storeUnavailable) {
            this.storeUnavailable = storeUnavailable;
            return this;
        }

        /** @return this builder, for a key banned by the rule after repeated denials (a denial) */
        public Builder banned(boolean banned) {
            this.banned = banned;
            return this;
        }

        /**
         * @return the decision
         * @throws IllegalArgumentException as {@link Decision#Decision} does
         */
        public Decision build() {
            return new Decision(rule, allowed, cost, remaining, burst, limitIndex, resetAfterMicros, retryAfterMicros,
                    shadowDenied, storeUnavailable, banned);
        }

        private static long toMicros(Duration duration) {
            return Math.addExact(Math.multiplyExact(duration.getSeconds(), MICROS_PER_SECOND), duration.getNano() / 1_000);
        }
    }
}
