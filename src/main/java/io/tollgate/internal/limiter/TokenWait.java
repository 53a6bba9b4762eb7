package io.tollgate.internal.limiter;

import io.tollgate.Decision;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Waits for tokens, as {@code RateLimiter.acquire} does: asks, and while denied sleeps the denial's retry-after and
 * asks again, as long as that wait ends within {@code maxWait}. A denial whose retry-after would end past it is answered
 * at once rather than slept on in vain. A denial charges nothing, so an interrupted wait has charged nothing.
 */
public final class TokenWait {

    /** The least sleep between two attempts, for a denial that asks for none (another caller took the tokens first). */
    static final long MIN_SLEEP_NANOS = 1_000_000;
    /** Longer waits are waited as this long (73 years): the nanoseconds stay far from overflowing. */
    private static final Duration FOREVER = Duration.ofNanos(Long.MAX_VALUE / 4);

    private final Sleeper sleeper;

    public TokenWait(Sleeper sleeper) {
        this.sleeper = sleeper;
    }

    /** @throws IllegalArgumentException for a {@code null} or negative {@code maxWait}; nothing was asked */
    public static long checkMaxWait(Duration maxWait) {
        if (maxWait == null || maxWait.isNegative()) {
            throw new IllegalArgumentException("maxWait = " + maxWait + ": give the longest wait, zero or more (Duration.ZERO "
                    + "does not wait)");
        }
        return maxWait.compareTo(FOREVER) > 0 ? FOREVER.toNanos() : maxWait.toNanos();
    }

    /**
     * @param attempt one decision: takes the tokens or answers why not, charging nothing then
     * @return the first decision allowed, answered by the store's failure policy, or denied with a retry-after past what is
     *         left of {@code maxWait}
     * @throws InterruptedException     if the thread is interrupted on entry or while waiting; the wait charged nothing
     * @throws IllegalArgumentException for a {@code null} or negative {@code maxWait}, before the first attempt
     */
    public Decision acquire(Supplier<Decision> attempt, Duration maxWait) throws InterruptedException {
        long maxNanos = checkMaxWait(maxWait);
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted before acquiring tokens");
        }
        long start = sleeper.nanoTime();
        while (true) {
            Decision decision = attempt.get();
            if (decision.allowed() || decision.storeUnavailable()) {
                return decision;
            }
            long retryAfter = decision.retryAfterMicros();
            long wait = retryAfter >= Long.MAX_VALUE / 1_000 ? Long.MAX_VALUE : Math.max(MIN_SLEEP_NANOS, retryAfter * 1_000);
            long left = maxNanos - (sleeper.nanoTime() - start);
            if (wait > left) {
                return decision;
            }
            sleeper.sleep(wait);
        }
    }
}
