package io.tollgate.simulator.engine;

import io.tollgate.internal.core.Clock;

/** The simulation's time: set by the simulation, never by the machine's clock. */
public final class VirtualClock implements Clock {

    private long now;

    public VirtualClock(long startMicros) {
        this.now = startMicros;
    }

    @Override
    public long nowMicros() {
        return now;
    }

    /** Moves the clock to {@code micros}; it never goes back. */
    public void set(long micros) {
        if (micros < now) {
            throw new IllegalArgumentException("time goes forward only: " + micros + " < " + now);
        }
        now = micros;
    }
}
