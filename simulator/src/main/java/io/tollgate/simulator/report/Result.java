package io.tollgate.simulator.report;

import java.util.List;

/**
 * What a run produced: the table's rows, the chart's lanes, and what the chart needs to say.
 *
 * @param title        the chart's title
 * @param subtitle     what was run: rules, seed, span
 * @param rows         one per client, group or key
 * @param total        every request together
 * @param lanes        the chart's lanes, in the rows' order
 * @param spanMicros   how long the traffic lasted
 * @param burst        the charted rule's burst (the height of a full bucket)
 * @param shadow       whether a rule in shadow mode limited requests (they were let through)
 */
public record Result(String title, String subtitle, List<RowStats> rows, RowStats total, List<Lane> lanes, long spanMicros,
        long burst, boolean shadow) {
}
