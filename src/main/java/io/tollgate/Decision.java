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
 */
public final class Decision {

    private static final long MICROS_PER_SECOND = 1_000_000L;

    private final String rule;
    private final boolean allowed;
    private final long cost;
    private final long remaining;
    private final long limit;
    private final int limitIndex;
    private final long resetAfterMicros;
    private final long retryAfterMicros;
    private final boolean shadowDenied;
    private final boolean storeUnavailable;

    private Decision(String rule, boolean allowed, long cost, long remaining, long limit,
            int limitIndex, long resetAfterMicros, long retryAfterMicros, boolean shadowDenied,
            boolean storeUnavailable) {
        this.rule = Objects.requireNonNull(rule, "rule");
        this.allowed = allowed;
        this.cost = cost;
        this.remaining = remaining;
        this.limit = limit;
        this.limitIndex = limitIndex;
        this.resetAfterMicros = resetAfterMicros;
        this.retryAfterMicros = retryAfterMicros;
        this.shadowDenied = shadowDenied;
        this.storeUnavailable = storeUnavailable;
    }

    /**
     * Creates a decision. Tollgate creates decisions; applications normally only read them
     * (tests of application code may create their own).
     *
     * @param rule             the rule's name
     * @param allowed          whether the tokens were granted (and charged)
     * @param cost             the tokens asked for
     * @param remaining        whole tokens left in the reported limit after this decision, {@code >= 0}
     * @param limit            the reported limit's capacity (its burst), {@code >= 1}
     * @param limitIndex       the reported limit's position in the rule, from 0
     * @param resetAfterMicros microseconds until the reported limit is full again, {@code >= 0}
     * @param retryAfterMicros for a denial, the exact microseconds until {@code cost} tokens exist
     *                         in every limit; 0 when allowed
     * @return the decision
     */
    public static Decision of(String rule, boolean allowed, long cost, long remaining, long limit,
            int limitIndex, long resetAfterMicros, long retryAfterMicros) {
        return new Decision(rule, allowed, cost, remaining, limit, limitIndex,
                resetAfterMicros, retryAfterMicros, false, false);
    }

    /**
     * The answer given when the store failed or did not answer in time: {@code allowed} follows
     * the rule's {@code on-store-failure} policy and nothing was charged.
     *
     * @param retryAfterMicros the wait suggested to a denied caller
     */
    public static Decision storeUnavailable(String rule, boolean allowed, long cost, long limit,
            long retryAfterMicros) {
        return new Decision(rule, allowed, cost, 0, limit, 0, 0, allowed ? 0 : retryAfterMicros, false, true);
    }

    /**
     * @return this decision as a rule in shadow mode reports it: always allowed, with
     *         {@link #shadowDenied()} telling whether enforcement would have denied
     */
    public Decision toShadow() {
        return new Decision(rule, true, cost, remaining, limit, limitIndex, resetAfterMicros,
                retryAfterMicros, !allowed || shadowDenied, storeUnavailable);
    }

    /** @return the name of the rule that decided */
    public String rule() {
        return rule;
    }

    /** @return {@code true} if the request may proceed; its cost has then been charged */
    public boolean allowed() {
        return allowed;
    }

    /** @return the number of tokens the request asked for */
    public long cost() {
        return cost;
    }

    /** @return whole tokens left in the reported limit after this decision */
    public long remaining() {
        return remaining;
    }

    /** @return the capacity (burst) of the reported limit */
    public long limit() {
        return limit;
    }

    /** @return the position of the reported limit within its rule, from 0 in configuration order */
    public int limitIndex() {
        return limitIndex;
    }

    /** @return the time until the reported limit is full again */
    public Duration resetAfter() {
        return micros(resetAfterMicros);
    }

    /** @return {@link #resetAfter()} in microseconds */
    public long resetAfterMicros() {
        return resetAfterMicros;
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

    /** @return {@link #retryAfter()} in microseconds */
    public long retryAfterMicros() {
        return retryAfterMicros;
    }

    /**
     * @return {@code true} if the rule runs in shadow mode and would have denied this request;
     *         {@link #allowed()} is then {@code true} and {@link #retryAfter()} tells the wait
     *         enforcement would have imposed
     */
    public boolean shadowDenied() {
        return shadowDenied;
    }

    /**
     * @return {@code true} if the store failed or timed out: nothing was charged and
     *         {@link #allowed()} follows the rule's {@code on-store-failure} policy
     */
    public boolean storeUnavailable() {
        return storeUnavailable;
    }

    private static Duration micros(long micros) {
        return Duration.ofSeconds(micros / MICROS_PER_SECOND, (micros % MICROS_PER_SECOND) * 1_000L);
    }

    private static long ceilSeconds(long micros) {
        return Math.floorDiv(micros + MICROS_PER_SECOND - 1, MICROS_PER_SECOND);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Decision)) {
            return false;
        }
        Decision d = (Decision) o;
        return allowed == d.allowed && cost == d.cost && remaining == d.remaining && limit == d.limit
                && limitIndex == d.limitIndex && resetAfterMicros == d.resetAfterMicros
                && retryAfterMicros == d.retryAfterMicros && shadowDenied == d.shadowDenied
                && storeUnavailable == d.storeUnavailable && rule.equals(d.rule);
    }

    @Override
    public int hashCode() {
        return Objects.hash(rule, allowed, cost, remaining, limit, limitIndex, resetAfterMicros,
                retryAfterMicros, shadowDenied, storeUnavailable);
    }

    @Override
    public String toString() {
        return "Decision{rule=" + rule + ", " + (allowed ? "allowed" : "denied") + ", cost=" + cost
                + ", remaining=" + remaining + ", limit=" + limit + ", limitIndex=" + limitIndex
                + ", resetAfter=" + resetAfter() + ", retryAfter=" + retryAfter()
                + (shadowDenied ? ", shadowDenied" : "") + (storeUnavailable ? ", storeUnavailable" : "") + '}';
    }
}
