package io.tollgate.testing;

import io.tollgate.internal.core.Clock;

/**
 * The wall clock of a member JVM, which the test can step like NTP does: Hazelcast reads it when the
 * JVM names this class in the system property {@value #PROPERTY}, and Tollgate decides buckets on
 * {@link #BUCKETS}. {@link MemberProcess} starts such members; the {@code clock} command steps them.
 */
public final class SteppableClock extends com.hazelcast.internal.util.Clock.ClockImpl {

    /** The system property through which Hazelcast takes its clock. */
    public static final String PROPERTY = "com.hazelcast.clock.impl";

    private static volatile long offsetMillis;

    /** The same clock for Tollgate's buckets, in microseconds. */
    public static final Clock BUCKETS = () -> Clock.SYSTEM.nowMicros() + offsetMillis * 1_000;

    /** @return whether this JVM's Hazelcast reads its time here */
    public static boolean installed() {
        return SteppableClock.class.getName().equals(System.getProperty(PROPERTY));
    }

    /** Sets both clocks {@code millis} ahead of the system clock (negative: behind) from now on. */
    public static void set(long millis) {
        offsetMillis = millis;
    }

    @Override
    protected long currentTimeMillis() {
        return System.currentTimeMillis() + offsetMillis;
    }

    @Override
    protected long toSystemCurrentTimeMillis(long millis) {
        return millis - offsetMillis;
    }
}
