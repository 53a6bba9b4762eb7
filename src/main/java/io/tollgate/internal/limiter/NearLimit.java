package io.tollgate.internal.limiter;

import io.tollgate.Decision;

/**
 * Which allowed decisions left their bucket nearly empty ({@code tollgate.near-limit}): fewer tokens remaining than
 * the fraction of the limit's burst, as Envoy's {@code near_limit} counts them. An early warning that a client is about
 * to be denied. Shadow denials and the answers of {@code on-store-failure} are never near the limit: the first would
 * have been denied, the second know nothing of the bucket.
 */
public final class NearLimit {

    private final double fraction;

    /** @param fraction of the burst, 0 to 1; 0 counts no decision */
    public NearLimit(double fraction) {
        if (!(fraction >= 0 && fraction <= 1)) {
            throw new IllegalArgumentException("a fraction from 0 to 1: " + fraction);
        }
        this.fraction = fraction;
    }

    /** @return whether {@code decision} let the request through and left fewer tokens than the fraction of its limit */
    public boolean test(Decision decision) {
        return decision.allowed() && !decision.shadowDenied() && !decision.storeUnavailable()
                && decision.remaining() < fraction * decision.burst();
    }
}
