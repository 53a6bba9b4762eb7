package io.tollgate.testing;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** Waits for a condition, never for luck: polls it every 20 ms and fails, naming it, once the bound has passed. */
public final class Await {

    private Await() {
    }

    /** @throws AssertionError if {@code condition} does not hold within {@code within} */
    public static void until(String what, Duration within, BooleanSupplier condition) {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not within " + within.toSeconds() + " s: " + what);
            }
            try {
                TimeUnit.MILLISECONDS.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + what, e);
            }
        }
    }
}
