package io.tollgate.internal.core;

import java.time.Instant;

/**
 * Wall-clock time in microseconds since the epoch. Buckets are decided on the clock of the
 * member that owns them; tests inject their own.
 */
@FunctionalInterface
public interface Clock {

    /** The system clock, with microsecond precision where the platform offers it. */
    Clock SYSTEM = () -> {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    };

    /** @return microseconds since 1970-01-01T00:00:00Z */
    long nowMicros();

    /** @return the instant {@code micros} microseconds since 1970-01-01T00:00:00Z */
    static Instant instant(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
    }
}
