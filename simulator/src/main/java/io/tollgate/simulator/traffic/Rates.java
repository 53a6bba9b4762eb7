package io.tollgate.simulator.traffic;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The small languages of a traffic model: arrival rates ({@code 8/s}, {@code 300/m}, {@code 0.5},
 * {@code 5/100ms}) and durations ({@code 90s}, {@code 10m}, {@code 2h}, {@code 250ms}). Every parser
 * throws {@link IllegalArgumentException} with the reason.
 */
public final class Rates {

    private static final Pattern RATE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(?:/\\s*(\\d*)\\s*([a-zA-Z]+))?");
    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([a-zA-Z]+)");
    static final String RATE_HELP = "use requests per second (8, 0.5) or <requests>/<period> (8/s, 300/m, 5/100ms)";
    static final String DURATION_HELP = "use a number and a unit: 250ms, 90s, 10m, 2h";

    private Rates() {
    }

    /** @return requests per second */
    public static double perSecond(String text) {
        Matcher m = RATE.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("not a rate; " + RATE_HELP);
        }
        double count = Double.parseDouble(m.group(1));
        if (m.group(3) == null) {
            return count;
        }
        double periods = m.group(2).isEmpty() ? 1 : Long.parseLong(m.group(2));
        if (periods == 0) {
            throw new IllegalArgumentException("not a rate: the period is 0; " + RATE_HELP);
        }
        return count / (periods * unitMicros(m.group(3)) / 1e6);
    }

    /** @return the duration in microseconds, more than 0 */
    public static long micros(String text) {
        Matcher m = DURATION.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("not a duration; " + DURATION_HELP);
        }
        double micros = Double.parseDouble(m.group(1)) * unitMicros(m.group(2));
        if (micros < 1 || micros > 366L * 86_400 * 1_000_000) {
            throw new IllegalArgumentException("must be between 1us and 366d");
        }
        return Math.round(micros);
    }

    private static double unitMicros(String unit) {
        switch (unit.toLowerCase(Locale.ROOT)) {
            case "us":
                return 1;
            case "ms":
                return 1e3;
            case "s":
            case "sec":
                return 1e6;
            case "m":
            case "min":
                return 60e6;
            case "h":
                return 3600e6;
            case "d":
                return 86_400e6;
            default:
                throw new IllegalArgumentException("unknown time unit '" + unit + "'; use us, ms, s, m, h or d");
        }
    }

    /** @return e.g. {@code 90 s}, {@code 2.5 min}, {@code 3 h} */
    public static String formatMicros(long micros) {
        if (micros < 1_000_000) {
            return trim(micros / 1e3) + " ms";
        }
        if (micros < 600_000_000L) {
            return trim(micros / 1e6) + " s";
        }
        if (micros < 3 * 3_600_000_000L) {
            return trim(micros / 60e6) + " min";
        }
        return trim(micros / 3600e6) + " h";
    }

    /** @return {@code 8}, {@code 0.5}, {@code 2.25}: at most two decimals, no trailing zeros */
    public static String trim(double value) {
        String text = String.format(Locale.ROOT, "%.2f", value);
        return text.contains(".") ? text.replaceAll("0+$", "").replaceAll("\\.$", "") : text;
    }
}
