package io.tollgate.internal.limiter;

import java.util.concurrent.TimeUnit;

/** The time a blocking acquire measures its wait by, and how it waits; tests drive their own. */
public interface Sleeper {

    /** The JVM's monotonic clock and {@link TimeUnit#sleep}: a wall clock stepped meanwhile changes no wait. */
    Sleeper SYSTEM = new Sleeper() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public void sleep(long nanos) throws InterruptedException {
            TimeUnit.NANOSECONDS.sleep(nanos);
        }
    };

    /** @return a monotonic time in nanoseconds, only differences of which mean anything */
    long nanoTime();

    /**
     * Waits {@code nanos} nanoseconds.
     *
     * @throws InterruptedException if the thread is interrupted meanwhile
     */
    void sleep(long nanos) throws InterruptedException;
}
