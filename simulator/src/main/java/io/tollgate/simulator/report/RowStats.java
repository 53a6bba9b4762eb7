package io.tollgate.simulator.report;

/**
 * One row of the table: a client (or group of clients, or key) over the whole run.
 *
 * @param name           the client, group or key
 * @param clients        how many clients the row stands for
 * @param requests       requests sent
 * @param allowed        requests let through (shadow-mode denials included: they are let through)
 * @param denied         requests refused with a 429
 * @param shadowDenied   requests a rule in shadow mode would have refused
 * @param badCost        requests refused with a 400 for a cost the rule does not accept
 * @param longestStreak  the most denials (or shadow denials) in a row to one client
 * @param maxRetryAfter  the largest {@code Retry-After} sent, in seconds (jitter included)
 * @param costAllowed    the cost of the requests let through, summed
 * @param peakPerSecond  the most cost let through within any one second
 * @param headroom       the least, over every bucket the row used and every window, of
 *                       {@code burst + rate × T} minus the tokens granted in the window; NaN if none
 */
public record RowStats(String name, int clients, long requests, long allowed, long denied, long shadowDenied, long badCost,
        long longestStreak, long maxRetryAfter, long costAllowed, long peakPerSecond, double headroom) {

    /** @return the requests limited: denied, or denied in shadow mode */
    public long limited() {
        return denied + shadowDenied;
    }
}
