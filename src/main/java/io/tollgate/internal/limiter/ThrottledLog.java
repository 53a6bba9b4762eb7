package io.tollgate.internal.limiter;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A log line that is written at most once per interval, with the number of occurrences it stands
 * for, so a flood of denials or store failures cannot flood the log.
 */
public final class ThrottledLog {

    /** The interval of {@link #of}: the README promises one line of each kind per 10 s. */
    private static final long INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final Logger logger;
    private final Level level;
    private final long intervalNanos;
    private final LongSupplier nanoTime;
    private final AtomicLong nextAllowed = new AtomicLong(Long.MIN_VALUE);
    private final AtomicLong suppressed = new AtomicLong();

    /** @return a log of one line per 10 s at most to {@code logger}, at {@code level} */
    public static ThrottledLog of(Logger logger, Level level) {
        return new ThrottledLog(logger, level, INTERVAL_NANOS, System::nanoTime);
    }

    ThrottledLog(Logger logger, Level level, long intervalNanos, LongSupplier nanoTime) {
        this.logger = logger;
        this.level = level;
        this.intervalNanos = intervalNanos;
        this.nanoTime = nanoTime;
    }

    /**
     * Counts one occurrence.
     *
     * @return whether a line is due for it: the caller then builds the message and passes it to
     *         {@link #write}; otherwise nothing is built (a line not written costs no string)
     */
    public boolean due() {
        if (!logger.isLoggable(level)) {
            return false;
        }
        long now = nanoTime.getAsLong();
        long next = nextAllowed.get();
        if ((next != Long.MIN_VALUE && now - next < 0) || !nextAllowed.compareAndSet(next, now + intervalNanos)) {
            suppressed.incrementAndGet();
            return false;
        }
        return true;
    }

    /** Writes the line {@link #due()} said was due, with the number of occurrences since the last one. */
    public void write(String message, Throwable cause) {
        long others = suppressed.getAndSet(0);
        String text = others == 0 ? message : message + " (and " + others + " more since the last report)";
        if (cause == null) {
            logger.log(level, text);
        } else {
            logger.log(level, text, cause);
        }
    }
}
