package io.tollgate.simulator.report;

import io.tollgate.internal.core.Limit;

/**
 * How far below {@code burst + rate × T} the grants of one bucket stayed: the least, over every
 * window of time, of the bound minus the tokens granted in it. A window worth examining starts and
 * ends at a grant, so with grants {@code (t_i, c_i)} this is the least of
 * {@code burst + rate × (t_j - t_i) - (c_i + ... + c_j)} over {@code i <= j}, found in one pass
 * (the best start so far is kept), in exact integers scaled by the limit's period.
 */
public final class Headroom {

    private Headroom() {
    }

    /**
     * @param times  grant times in µs, ascending
     * @param costs  tokens granted at each
     * @return the headroom in tokens (0: some window got exactly its bound; below 0 would be an over-grant),
     *         or {@code NaN} without grants
     */
    public static double of(Limit limit, long[] times, long[] costs) {
        if (times.length == 0) {
            return Double.NaN;
        }
        long period = limit.periodMicros();
        long tokens = limit.tokens();
        long burst = Math.multiplyExact(limit.burst(), period);
        long origin = times[0];
        long granted = 0;
        long bestStart = Long.MIN_VALUE; // max over i of tokens*t_i - period*S_(i-1)
        long least = Long.MAX_VALUE;
        for (int j = 0; j < times.length; j++) {
            long refill = Math.multiplyExact(tokens, times[j] - origin);
            bestStart = Math.max(bestStart, Math.subtractExact(refill, Math.multiplyExact(period, granted)));
            granted = Math.addExact(granted, costs[j]);
            long end = Math.subtractExact(refill, Math.multiplyExact(period, granted));
            least = Math.min(least, Math.addExact(burst, end - bestStart));
        }
        return least / (double) period;
    }
}
