package io.tollgate.internal.limiter;

import io.tollgate.Decision;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;

/** The {@link Decision}s the engine makes: from a store's outcome, without the store, and in shadow mode. */
public final class Decisions {

    private Decisions() {
    }

    /**
     * @return the decision of {@code rule}, whose definition is {@code bucket}, that {@code outcome} tells
     * @throws IllegalStateException if the outcome came too late to be applied ({@link Outcome#isExpired()})
     */
    public static Decision of(String rule, TokenBucket bucket, long cost, Outcome outcome) {
        if (outcome.isExpired()) {
            throw Outcome.expiredFailure();
        }
        int limitIndex = outcome.limitIndex();
        return new Decision(rule, outcome.allowed(), cost, outcome.remaining(), bucket.burst(limitIndex), limitIndex,
                outcome.resetAfterMicros(), outcome.retryAfterMicros(), false, false);
    }

    /**
     * @return the answer given when the store failed or did not answer in time: allowed or not by the rule's
     *         policy, nothing charged, the first limit reported
     */
    public static Decision storeUnavailable(String rule, boolean allowed, long cost, long limit, long retryAfterMicros) {
        return new Decision(rule, allowed, cost, 0, limit, 0, 0, allowed ? 0 : retryAfterMicros, false, true);
    }

    /**
     * @return the answer of this instance's share of the rule ({@code on-store-failure=local}), decided without the
     *         store: allowed or denied by {@code outcome}, with its tokens and waits, the rest as for any answer without
     *         the store; the limit reported is the share's
     */
    public static Decision local(String rule, TokenBucket share, long cost, Outcome outcome) {
        int limitIndex = outcome.limitIndex();
        return new Decision(rule, outcome.allowed(), cost, outcome.remaining(), share.burst(limitIndex), limitIndex,
                outcome.resetAfterMicros(), outcome.retryAfterMicros(), false, true);
    }

    /**
     * @return the answer to a key banned by {@code rule}: denied without asking the store, nothing charged, the first
     *         limit reported, and the time left of the ban as the wait
     */
    public static Decision banned(String rule, long cost, long limit, long leftMicros) {
        return new Decision(rule, false, cost, 0, limit, 0, 0, leftMicros, false, false, true);
    }

    /** @return {@code decision} as a rule in shadow mode reports it: allowed, and shadow-denied if it was denied */
    public static Decision shadow(Decision decision) {
        return new Decision(decision.rule(), true, decision.cost(), decision.remaining(), decision.burst(),
                decision.limitIndex(), decision.resetAfterMicros(), decision.retryAfterMicros(),
                !decision.allowed() || decision.shadowDenied(), decision.storeUnavailable());
    }

    /** @return {@code charged} as it reads after its tokens were given back: the bucket as {@code refund} found it */
    public static Decision refunded(Decision charged, Decision refund) {
        return new Decision(charged.rule(), true, charged.cost(), refund.remaining(), refund.burst(), refund.limitIndex(),
                refund.resetAfterMicros(), 0, false, false);
    }
}
