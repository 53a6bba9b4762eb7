package io.tollgate.internal.core;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;

/**
 * One token-bucket limit: a capacity of {@code burst} tokens, refilled continuously with
 * {@code tokens} every {@code period}. Immutable; validated on creation.
 *
 * <p>Internally a token is {@link #unitsPerToken()} units and the bucket gains
 * {@link #refillUnitsPerMicro()} units every microsecond, both integers (the rate reduced by its
 * greatest common divisor), so refill is exact integer arithmetic that never drifts.
 */
public final class Limit {

    /** Longest refill period accepted. */
    public static final Duration MAX_PERIOD = Duration.ofDays(3650);
    /** Headroom kept below {@code Long.MAX_VALUE} so {@code capacity + refill} cannot overflow. */
    static final long MAX_UNITS = 1L << 61;
    private static final int MAX_RATE_DECIMALS = 12;
    private static final long MICROS_PER_SECOND = 1_000_000L;
    /** Longest window {@link #windowSeconds()} searches for a whole number of tokens, before it rounds. */
    private static final long MAX_WINDOW_SECONDS = 86_400;

    private final long burst;
    private final long tokens;
    private final long periodMicros;
    private final long unitsPerToken;
    private final long refillUnitsPerMicro;
    private final long capacityUnits;
    private final long windowSeconds;
    private final long tokensPerWindow;

    private Limit(long burst, long tokens, long periodMicros) {
        this.burst = burst;
        this.tokens = tokens;
        this.periodMicros = periodMicros;
        long gcd = BigInteger.valueOf(tokens).gcd(BigInteger.valueOf(periodMicros)).longValueExact();
        this.unitsPerToken = periodMicros / gcd;
        this.refillUnitsPerMicro = tokens / gcd;
        long units;
        try {
            units = Math.multiplyExact(burst, unitsPerToken);
        } catch (ArithmeticException e) {
            units = Long.MAX_VALUE;
        }
        if (units > MAX_UNITS) {
            throw InvalidDefinitionException.of("burst", burst,
                    "too large for a refill of " + rateText() + " (burst x period / rate exceeds 2^61)");
        }
        this.capacityUnits = units;
        long[] window = window(tokens, periodMicros);
        this.windowSeconds = window[0];
        this.tokensPerWindow = window[1];
    }

    /**
     * The rate as a whole number of tokens per whole number of seconds: the period itself when it is whole
     * seconds, else the shortest whole-second window holding a whole number of tokens (5 per 100 ms: 50 per
     * second), else the period rounded up with the tokens it surely refills, rounded down.
     */
    private static long[] window(long tokens, long periodMicros) {
        if (periodMicros % MICROS_PER_SECOND == 0) {
            return new long[] {periodMicros / MICROS_PER_SECOND, tokens};
        }
        BigInteger t = BigInteger.valueOf(tokens);
        BigInteger p = BigInteger.valueOf(periodMicros);
        BigInteger second = BigInteger.valueOf(MICROS_PER_SECOND);
        // tokens x w s / period is whole for w = period / gcd(tokens x 1 s, period)
        BigInteger smallest = p.divide(t.multiply(second).gcd(p));
        BigInteger w = smallest.compareTo(BigInteger.valueOf(MAX_WINDOW_SECONDS)) <= 0 ? smallest
                : p.add(second).subtract(BigInteger.ONE).divide(second);
        BigInteger q = t.multiply(w).multiply(second).divide(p);
        return new long[] {w.longValueExact(), q.min(BigInteger.valueOf(Long.MAX_VALUE)).longValue()};
    }

    /**
     * @param burst  the capacity in tokens, at least 1
     * @param tokens tokens added per {@code period}, at least 1
     * @param period the refill period, a whole number of microseconds between 1 µs and {@link #MAX_PERIOD}
     * @return the limit
     * @throws InvalidDefinitionException naming the bad field and value
     */
    public static Limit of(long burst, long tokens, Duration period) {
        if (burst < 1) {
            throw InvalidDefinitionException.of("burst", burst, "must be at least 1");
        }
        if (tokens < 1) {
            throw InvalidDefinitionException.of("rate", tokens, "must be greater than 0");
        }
        if (tokens > MAX_UNITS) {
            throw InvalidDefinitionException.of("rate", tokens, "must be at most 2^61 tokens per period");
        }
        if (period == null || period.isNegative() || period.isZero()) {
            throw InvalidDefinitionException.of("period", period, "must be positive");
        }
        if (period.compareTo(MAX_PERIOD) > 0) {
            throw InvalidDefinitionException.of("period", period, "must be at most " + MAX_PERIOD.toDays() + " days");
        }
        if (period.getNano() % 1_000 != 0) {
            throw InvalidDefinitionException.of("period", period, "must be a whole number of microseconds");
        }
        long micros = period.getSeconds() * MICROS_PER_SECOND + period.getNano() / 1_000;
        return new Limit(burst, tokens, micros);
    }

    /**
     * A limit refilled at {@code ratePerSecond}, which may be fractional ({@code 0.5} is one token
     * every two seconds) with up to 12 decimals; the conversion is exact.
     *
     * @param ratePerSecond tokens per second, greater than 0
     * @param burst         the capacity in tokens, at least 1
     * @return the limit
     * @throws InvalidDefinitionException naming the bad field and value
     */
    public static Limit perSecond(BigDecimal ratePerSecond, long burst) {
        if (ratePerSecond == null || ratePerSecond.signum() <= 0) {
            throw InvalidDefinitionException.of("rate", ratePerSecond, "must be greater than 0");
        }
        BigDecimal rate = ratePerSecond.stripTrailingZeros();
        if (rate.scale() > MAX_RATE_DECIMALS) {
            throw InvalidDefinitionException.of("rate", ratePerSecond.toPlainString(),
                    "must have at most " + MAX_RATE_DECIMALS + " decimal places");
        }
        if (rate.scale() <= 0) {
            BigInteger whole = rate.toBigIntegerExact();
            if (whole.bitLength() > 62) {
                throw InvalidDefinitionException.of("rate", ratePerSecond.toPlainString(), "must be at most 2^61 tokens per second");
            }
            return of(burst, whole.longValueExact(), Duration.ofSeconds(1));
        }
        BigInteger tokens = rate.unscaledValue();
        if (tokens.bitLength() > 62) {
            throw InvalidDefinitionException.of("rate", ratePerSecond.toPlainString(), "has too many digits");
        }
        BigInteger periodSeconds = BigInteger.TEN.pow(rate.scale());
        BigInteger gcd = tokens.gcd(periodSeconds);
        Duration period = Duration.ofSeconds(periodSeconds.divide(gcd).longValueExact());
        if (period.compareTo(MAX_PERIOD) > 0) {
            throw InvalidDefinitionException.of("rate", ratePerSecond.toPlainString(),
                    "is too slow: must be at least 1 token per " + MAX_PERIOD.toDays() + " days");
        }
        return of(burst, tokens.divide(gcd).longValueExact(), period);
    }

    /** @return the capacity in tokens */
    public long burst() {
        return burst;
    }

    /** @return tokens added every {@link #period()} */
    public long tokens() {
        return tokens;
    }

    /** @return the refill period */
    public Duration period() {
        return Duration.ofSeconds(periodMicros / MICROS_PER_SECOND, (periodMicros % MICROS_PER_SECOND) * 1_000);
    }

    /** @return the refill period in microseconds */
    public long periodMicros() {
        return periodMicros;
    }

    /** @return internal units per token (the period divided by gcd(tokens, period)) */
    public long unitsPerToken() {
        return unitsPerToken;
    }

    /** @return internal units refilled per microsecond (the tokens divided by gcd(tokens, period)) */
    public long refillUnitsPerMicro() {
        return refillUnitsPerMicro;
    }

    /** @return the capacity in internal units */
    public long capacityUnits() {
        return capacityUnits;
    }

    /** @return a window in whole seconds for {@link #tokensPerWindow()}: the refill period, if it is whole seconds */
    public long windowSeconds() {
        return windowSeconds;
    }

    /** @return whole tokens refilled in {@link #windowSeconds()} (at least the rate, never more) */
    public long tokensPerWindow() {
        return tokensPerWindow;
    }

    /**
     * @param remaining        whole tokens left
     * @param resetAfterMicros µs until the bucket is full (as a decision reports it)
     * @return µs until the bucket holds {@code remaining + 1} whole tokens (at least 1), or 0 if it is full
     */
    public long nextTokenMicros(long remaining, long resetAfterMicros) {
        if (remaining >= burst || resetAfterMicros <= 0) {
            return 0;
        }
        long afterNext = Math.floorDiv((burst - remaining - 1) * unitsPerToken, refillUnitsPerMicro);
        return Math.max(1, resetAfterMicros - afterNext);
    }

    /**
     * One instance's share of this limit when {@code parts} instances each limit on their own: the burst divided by
     * them, rounded down (at least 1 token), refilled at the rate divided by them (the same tokens over a period
     * {@code parts} times as long; for a period that would then exceed {@link #MAX_PERIOD}, the tokens divided by
     * them, rounded down, at least 1, over the same period).
     *
     * @param parts how many instances share the limit, at least 1
     * @return the share; this limit itself for one part
     */
    public Limit share(int parts) {
        if (parts < 1) {
            throw new IllegalArgumentException("parts = " + parts + ": must be at least 1");
        }
        if (parts == 1) {
            return this;
        }
        long shareBurst = Math.max(1, burst / parts);
        if (periodMicros <= MAX_PERIOD.toNanos() / 1_000 / parts) {
            return new Limit(shareBurst, tokens, periodMicros * parts);
        }
        return new Limit(shareBurst, Math.max(1, tokens / parts), periodMicros);
    }

    /** @return microseconds to refill an empty bucket completely */
    public long fillMicros() {
        return TokenBucket.ceilDiv(capacityUnits, refillUnitsPerMicro);
    }

    private String rateText() {
        return tokens + "/" + Durations.format(periodMicros);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Limit && ((Limit) o).burst == burst
                && ((Limit) o).refillUnitsPerMicro == refillUnitsPerMicro
                && ((Limit) o).unitsPerToken == unitsPerToken;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(burst) * 31 * 31 + Long.hashCode(refillUnitsPerMicro) * 31 + Long.hashCode(unitsPerToken);
    }

    /** @return e.g. {@code "10/1s burst 20"} */
    @Override
    public String toString() {
        return rateText() + " burst " + burst;
    }
}
