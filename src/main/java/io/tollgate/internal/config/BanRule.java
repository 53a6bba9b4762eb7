package io.tollgate.internal.config;

import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.TokenBucket;
import java.time.Duration;

/**
 * A rule's temporary ban ({@code ban-after}, {@code ban-for}, {@code ban-status}): the enforced denials of one key
 * are counted in a token bucket of n per period with a burst of n; a denial that takes its last token, or finds none,
 * starts a ban, answered with {@link #status()} until it ends. Immutable.
 */
public final class BanRule {

    private final Limit after;
    private final TokenBucket counter;
    private final Duration duration;
    private final int status;

    /**
     * @param after    n denials per period, burst n
     * @param duration how long a ban lasts
     * @param status   the HTTP status a banned request gets: 429 or 403
     */
    BanRule(Limit after, Duration duration, int status) {
        this.after = after;
        this.counter = TokenBucket.of(after);
        this.duration = duration;
        this.status = status;
    }

    /** @return the denials that start a ban, per period */
    public Limit after() {
        return after;
    }

    /** @return the bucket that counts one key's denials: one token per denial */
    public TokenBucket counter() {
        return counter;
    }

    public Duration duration() {
        return duration;
    }

    /** @return {@link #duration()} in microseconds */
    public long durationMicros() {
        return duration.toNanos() / 1_000;
    }

    /** @return the HTTP status of a banned request's answer: 429 or 403 */
    public int status() {
        return status;
    }

    @Override
    public String toString() {
        return "ban-after=" + after.tokens() + "/" + after.period() + " ban-for=" + duration + " ban-status=" + status;
    }
}
