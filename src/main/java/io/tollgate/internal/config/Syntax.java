package io.tollgate.internal.config;

import io.tollgate.internal.core.Limit;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The small languages of Tollgate's properties: rates ({@code 10}, {@code 0.5}, {@code 1000/1h},
 * {@code 5/100ms}, {@code 100/m}), limits ({@code 10/s burst 20}) and durations ({@code 250ms},
 * {@code 2s}, {@code PT0.25S}). Every parser throws {@link IllegalArgumentException} with the reason.
 */
final class Syntax {

    private static final Pattern PER_PERIOD = Pattern.compile("(\\d+)\\s*/\\s*(\\d*)\\s*([a-zA-Z]+)");
    private static final Pattern DECIMAL = Pattern.compile("\\d+(\\.\\d+)?");
    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*([a-zA-Z]+)");
    private static final Pattern LIMIT = Pattern.compile("(.+?)(?:\\s+burst\\s+(\\S+))?");
    static final String RATE_HELP = "use tokens per second (10, 0.5) or <tokens>/<period> (1000/1h, 5/100ms)";

    private Syntax() {
    }

    /** A rate and the burst to use when none is given: the tokens of one period, at least 1. */
    static Limit limit(String rateText, long burst) {
        String rate = rateText.trim();
        Matcher perPeriod = PER_PERIOD.matcher(rate);
        if (perPeriod.matches()) {
            long tokens = parseLong(perPeriod.group(1), "the tokens");
            long count = perPeriod.group(2).isEmpty() ? 1 : parseLong(perPeriod.group(2), "the period");
            Duration period = times(unit(perPeriod.group(3)), count);
            return Limit.of(burst > 0 ? burst : Math.max(1, tokens), tokens, period);
        }
        if (DECIMAL.matcher(rate).matches()) {
            BigDecimal perSecond = new BigDecimal(rate);
            long defaultBurst = Math.max(1, perSecond.setScale(0, RoundingMode.CEILING).min(BigDecimal.valueOf(Long.MAX_VALUE)).longValue());
            return Limit.perSecond(perSecond, burst > 0 ? burst : defaultBurst);
        }
        throw new IllegalArgumentException("not a rate; " + RATE_HELP);
    }

    /** @return whether {@code text} is a rate written {@code <tokens>/<period>} (rather than tokens per second) */
    static boolean isPerPeriod(String text) {
        return PER_PERIOD.matcher(text.trim()).matches();
    }

    /** One item of {@code limits}: {@code <rate>} or {@code <rate> burst <n>}. */
    static Limit limitItem(String item) {
        Matcher m = LIMIT.matcher(item.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("not a limit; use <rate> or <rate> burst <n>, e.g. 10/s burst 20");
        }
        long burst = m.group(2) == null ? 0 : parseLong(m.group(2), "burst");
        if (m.group(2) != null && burst < 1) {
            throw new IllegalArgumentException("burst " + m.group(2) + " must be at least 1");
        }
        return limit(m.group(1), burst);
    }

    static Duration duration(String text) {
        String value = text.trim();
        if (value.toUpperCase(Locale.ROOT).startsWith("PT") || value.toUpperCase(Locale.ROOT).startsWith("P")) {
            try {
                return Duration.parse(value);
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("not a duration; use e.g. 250ms, 2s or PT0.25S");
            }
        }
        Matcher m = DURATION.matcher(value);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a duration; use e.g. 250ms, 2s or PT0.25S");
        }
        return times(unit(m.group(2)), parseLong(m.group(1), "the duration"));
    }

    private static Duration times(Duration unit, long count) {
        try {
            return unit.multipliedBy(count);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("too long a duration");
        }
    }

    static long parseLong(String text, String what) {
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + " '" + text.trim() + "' is not a whole number");
        }
    }

    private static Duration unit(String unit) {
        switch (unit.toLowerCase(Locale.ROOT)) {
            case "us":
                return Duration.ofNanos(1_000);
            case "ms":
                return Duration.ofMillis(1);
            case "s":
            case "sec":
                return Duration.ofSeconds(1);
            case "m":
            case "min":
                return Duration.ofMinutes(1);
            case "h":
                return Duration.ofHours(1);
            case "d":
                return Duration.ofDays(1);
            default:
                throw new IllegalArgumentException("unknown time unit '" + unit + "'; use us, ms, s, m, h or d");
        }
    }
}
