package io.tollgate.internal.core;

/** Compact rendering of microsecond durations: {@code 1s}, {@code 250ms}, {@code 1h}. */
final class Durations {

    private static final long[] UNIT_MICROS = {86_400_000_000L, 3_600_000_000L, 60_000_000L, 1_000_000L, 1_000L, 1L};
    private static final String[] UNIT_NAMES = {"d", "h", "m", "s", "ms", "us"};

    private Durations() {
    }

    static String format(long micros) {
        for (int i = 0; i < UNIT_MICROS.length; i++) {
            if (micros % UNIT_MICROS[i] == 0) {
                return micros / UNIT_MICROS[i] + UNIT_NAMES[i];
            }
        }
        throw new AssertionError(micros);
    }
}
