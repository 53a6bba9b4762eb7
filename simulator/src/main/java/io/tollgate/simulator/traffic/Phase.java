package io.tollgate.simulator.traffic;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One stretch of a client's traffic: its length and its arrival rate over that time.
 * <ul>
 * <li>{@code steady 60s 8/s}: a constant rate;</li>
 * <li>{@code burst 5s 40/s}: the same, named for what it is;</li>
 * <li>{@code ramp 2m 1/s..20/s}: a rate going linearly from the first to the second;</li>
 * <li>{@code onoff 2m 20/s 5s/15s}: the rate for 5 s, then nothing for 15 s, repeated;</li>
 * <li>{@code pause 30s}: nothing.</li>
 * </ul>
 */
public final class Phase {

    /** What a phase does. */
    public enum Kind { STEADY, BURST, RAMP, ONOFF, PAUSE }

    private static final Pattern WORDS = Pattern.compile("\\s+");
    static final String HELP = "use steady <duration> <rate>, burst <duration> <rate>, ramp <duration> <rate>..<rate>, "
            + "onoff <duration> <rate> <on>/<off> or pause <duration>, e.g. steady 60s 8/s";
    private static final Pattern RAMP = Pattern.compile("(.+?)\\.\\.(.+)");
    private static final Pattern ON_OFF = Pattern.compile("([^/]+)/([^/]+)");

    private final Kind kind;
    private final long durationMicros;
    private final double from;
    private final double to;
    private final long onMicros;
    private final long offMicros;
    private final String text;

    private Phase(Kind kind, long durationMicros, double from, double to, long onMicros, long offMicros, String text) {
        this.kind = kind;
        this.durationMicros = durationMicros;
        this.from = from;
        this.to = to;
        this.onMicros = onMicros;
        this.offMicros = offMicros;
        this.text = text;
    }

    /**
     * @param text one phase, e.g. {@code ramp 2m 1/s..20/s}
     * @throws IllegalArgumentException with the reason
     */
    public static Phase parse(String text) {
        String[] words = WORDS.split(text.trim());
        Kind kind;
        try {
            kind = Kind.valueOf(words[0].toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + text.trim() + "' is not a phase; " + HELP);
        }
        int expected = kind == Kind.PAUSE ? 2 : kind == Kind.ONOFF ? 4 : 3;
        if (words.length != expected) {
            throw new IllegalArgumentException("'" + text.trim() + "' is not a phase; " + HELP);
        }
        long duration = Rates.micros(words[1]);
        switch (kind) {
            case PAUSE:
                return new Phase(kind, duration, 0, 0, 0, 0, text.trim());
            case RAMP: {
                Matcher m = RAMP.matcher(words[2]);
                if (!m.matches()) {
                    throw new IllegalArgumentException("'" + text.trim() + "': a ramp needs <rate>..<rate>, e.g. 1/s..20/s");
                }
                return new Phase(kind, duration, Rates.perSecond(m.group(1)), Rates.perSecond(m.group(2)), 0, 0, text.trim());
            }
            case ONOFF: {
                Matcher m = ON_OFF.matcher(words[3]);
                if (!m.matches()) {
                    throw new IllegalArgumentException("'" + text.trim() + "': on/off needs <on>/<off> durations, e.g. 5s/15s");
                }
                double rate = Rates.perSecond(words[2]);
                return new Phase(kind, duration, rate, rate, Rates.micros(m.group(1)), Rates.micros(m.group(2)), text.trim());
            }
            default: {
                double rate = Rates.perSecond(words[2]);
                return new Phase(kind, duration, rate, rate, 0, 0, text.trim());
            }
        }
    }

    public Kind kind() {
        return kind;
    }

    public long durationMicros() {
        return durationMicros;
    }

    /** @return the arrival rate (per second) at {@code offset} µs into the phase */
    public double rateAt(long offset) {
        switch (kind) {
            case PAUSE:
                return 0;
            case RAMP:
                return from + (to - from) * offset / (double) durationMicros;
            case ONOFF:
                return offset % (onMicros + offMicros) < onMicros ? from : 0;
            default:
                return from;
        }
    }

    /** @return the highest rate the phase reaches */
    public double maxRate() {
        return Math.max(from, to);
    }

    /** @return the number of arrivals expected over the first {@code offset} µs of the phase */
    public double expected(long offset) {
        double t = offset / 1e6;
        switch (kind) {
            case PAUSE:
                return 0;
            case RAMP:
                return from * t + (to - from) * t * t / (2 * durationMicros / 1e6);
            case ONOFF: {
                long cycle = onMicros + offMicros;
                long cycles = offset / cycle;
                long within = offset - cycles * cycle;
                return from * (cycles * onMicros + Math.min(within, onMicros)) / 1e6;
            }
            default:
                return from * t;
        }
    }

    /**
     * The time at which {@link #expected} first reaches {@code target}: arrivals are placed there, at
     * whole numbers for evenly spaced ones and at sums of exponential draws for a Poisson process
     * (the time change that turns a unit-rate Poisson process into one of this phase's rate).
     *
     * @return µs into the phase, or -1 if the phase ends first
     */
    long inverse(double target) {
        double seconds;
        switch (kind) {
            case PAUSE:
                return -1;
            case RAMP: {
                double d = durationMicros / 1e6;
                double a = (to - from) / (2 * d);
                if (Math.abs(a) < 1e-15) {
                    if (from <= 0) {
                        return -1;
                    }
                    seconds = target / from;
                } else {
                    double disc = from * from + 4 * a * target;
                    if (disc < 0) {
                        return -1;
                    }
                    seconds = (-from + Math.sqrt(disc)) / (2 * a);
                }
                break;
            }
            case ONOFF: {
                double perCycle = from * onMicros / 1e6;
                if (perCycle <= 0) {
                    return -1;
                }
                long cycles = (long) Math.floor(target / perCycle);
                double rest = target - cycles * perCycle;
                seconds = cycles * (onMicros + offMicros) / 1e6 + rest / from;
                break;
            }
            default:
                if (from <= 0) {
                    return -1;
                }
                seconds = target / from;
                break;
        }
        long micros = (long) Math.ceil(seconds * 1e6 - 1e-6);
        return micros < durationMicros && seconds >= 0 ? Math.max(0, micros) : -1;
    }

    @Override
    public String toString() {
        return text;
    }
}
