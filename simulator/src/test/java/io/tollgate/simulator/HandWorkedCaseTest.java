package io.tollgate.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.simulator.report.Lane;
import io.tollgate.simulator.report.MarkdownTable;
import io.tollgate.simulator.report.Result;
import org.junit.jupiter.api.Test;

/**
 * A run small enough to work out by hand, compared number by number with what the simulator
 * reports: the chart's points and the table's row.
 */
class HandWorkedCaseTest {

    /*
     * Rule: 2 tokens per second, burst 3, one bucket, no jitter on Retry-After.
     * Traffic, evenly spaced: 10/s for 0.4 s (t = 0, 0.1, 0.2, 0.3), nothing for 0.2 s, then 2.5/s for
     * 1 s (t = 0.6, 1.0, 1.4).
     *
     *   t     tokens on arrival          decision   left    Retry-After
     *   0.0   3 (a missing bucket is full)  allow    2
     *   0.1   2 + 0.2 = 2.2                allow    1.2
     *   0.2   1.2 + 0.2 = 1.4              allow    0.4
     *   0.3   0.4 + 0.2 = 0.6              deny     0.6     (1 - 0.6) / 2 = 0.2 s -> 1 s
     *   0.6   0.6 + 0.6 = 1.2              allow    0.2
     *   1.0   0.2 + 0.8 = 1.0              allow    0
     *   1.4   0 + 0.8 = 0.8                deny     0.8     (1 - 0.8) / 2 = 0.1 s -> 1 s
     *
     * Whole tokens on arrival (what the dots show): 3, 2, 1, 0, 1, 1, 0.
     * 7 requests, 5 allowed, 2 denied (28.6 %), never two denials in a row, largest Retry-After 1 s.
     * Most allowed within one second: [0, 1) holds 0, 0.1, 0.2, 0.6 = 4 (and [0.1, 1.1) the same 4).
     * Headroom, the least of 3 + 2T - granted over windows between grants:
     *   [0, 0.2]: 3 + 0.4 - 3 = 0.4;  [0, 0.6]: 3 + 1.2 - 4 = 0.2;  [0, 1.0]: 3 + 2 - 5 = 0  -> 0.
     */
    static final String[] SCENARIO = {
        "simulation.seed=1",
        "tollgate.retry-after.jitter=0",
        "tollgate.rules.r.rate=2",
        "tollgate.rules.r.burst=3",
        "tollgate.rules.r.key=global",
        "client.c.phases=steady 0.4s 10/s, pause 0.2s, steady 1s 2.5/s",
        "client.c.arrivals=even"};

    @Test
    void everyRequestIsWhereTheHandWorkedCaseSaysItIs() {
        Result result = Scenarios.run(SCENARIO);

        Lane lane = result.lanes().get(0);
        assertThat(lane.times()).containsExactly(0, 100_000, 200_000, 300_000, 600_000, 1_000_000, 1_400_000);
        assertThat(lane.tokens()).containsExactly(3, 2, 1, 0, 1, 1, 0);
        assertThat(lane.outcomes()).containsExactly(Lane.ALLOWED, Lane.ALLOWED, Lane.ALLOWED, Lane.LIMITED, Lane.ALLOWED,
                Lane.ALLOWED, Lane.LIMITED);
    }

    @Test
    void theTableSaysWhatTheHandWorkedCaseSays() {
        Result result = Scenarios.run(SCENARIO);

        assertThat(MarkdownTable.of(result).lines().toList()).contains(
                "| Client | Requests | Allowed | Denied | Longest denial streak | Largest Retry-After | Cost allowed "
                        + "| Most cost in 1 s | Headroom below burst + rate × T |",
                "| c | 7 | 5 | 2 (28.6 %) | 1 | 1 s | 5 | 4 | 0 |");
    }
}
