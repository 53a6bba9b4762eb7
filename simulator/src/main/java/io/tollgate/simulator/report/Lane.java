package io.tollgate.simulator.report;

/**
 * What the chart draws in one lane: every request at the tokens it found (allowed, limited, bad cost)
 * and the bucket's tokens over time.
 *
 * @param name       the lane's client, group or key
 * @param times      request times, µs from the start
 * @param tokens     whole tokens the charted bucket held when the request arrived (-1: the rule did not apply)
 * @param outcomes   per request: 0 allowed, 1 limited (denied, or denied in shadow mode), 2 bad cost
 * @param lineTimes  times of the token line's points, µs from the start
 * @param lineTokens the token line: whole tokens in the lane's bucket
 * @param bucket     whose bucket the line shows, for the legend; {@code null} without a line
 */
public record Lane(String name, long[] times, long[] tokens, byte[] outcomes, long[] lineTimes, long[] lineTokens, String bucket) {

    public static final byte ALLOWED = 0;
    public static final byte LIMITED = 1;
    public static final byte BAD_COST = 2;
}
