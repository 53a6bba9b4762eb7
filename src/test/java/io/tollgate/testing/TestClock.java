package io.tollgate.testing;

import io.tollgate.internal.core.Clock;
import java.time.Duration;

/**
 * A clock tests drive by hand ({@link #set}, {@link #advance}); {@link #useSystemTime()} lets it
 * follow the real clock for tests that measure real throughput.
 */
public final class TestClock implements Clock {

    private volatile long now;
    private volatile boolean system;

    public TestClock(long startMicros) {
        this.now = startMicros;
    }

    /** A clock stopped at the current real time, rounded to a whole second. */
    public static TestClock atRealTime() {
        return new TestClock(Clock.SYSTEM.nowMicros() / 1_000_000 * 1_000_000);
    }

    @Override
    public long nowMicros() {
        return system ? Clock.SYSTEM.nowMicros() : now;
    }

    public synchronized TestClock set(long micros) {
        this.system = false;
        this.now = micros;
        return this;
    }

    public synchronized TestClock advance(Duration by) {
        return set(nowMicros() + by.toNanos() / 1_000);
    }

    public synchronized TestClock advanceMicros(long micros) {
        return set(nowMicros() + micros);
    }

    public synchronized TestClock useSystemTime() {
        this.system = true;
        return this;
    }
}
