package io.tollgate.internal.hazelcast;

import io.tollgate.internal.core.Outcome;

/**
 * The form an {@link Outcome} travels in between members: five {@code long}s (allowed, limit index,
 * remaining, reset after, retry after), without the state the owner stored. A batch's outcomes are five
 * longs each, one after the other. The owner answers {@code {-1}} for a decision that reached it after its
 * caller's deadline and was not applied.
 */
public final class OutcomeWire {

    private static final int LENGTH = 5;
    /** The first of the five longs: 1 allowed, 0 denied, -1 not applied (too late). */
    private static final long EXPIRED = -1;

    private OutcomeWire() {
    }

    /** @return the decision without the state, as five longs */
    public static long[] of(Outcome outcome) {
        if (outcome.isExpired()) {
            return new long[] {EXPIRED, 0, 0, 0, 0};
        }
        return new long[] {outcome.allowed() ? 1 : 0, outcome.limitIndex(), outcome.remaining(),
                outcome.resetAfterMicros(), outcome.retryAfterMicros()};
    }

    /** @return several outcomes, five longs each, one after the other */
    public static long[] of(Outcome[] outcomes) {
        long[] wire = new long[outcomes.length * LENGTH];
        for (int i = 0; i < outcomes.length; i++) {
            System.arraycopy(of(outcomes[i]), 0, wire, i * LENGTH, LENGTH);
        }
        return wire;
    }

    /** @return the answer of a decision that reached the owner after its caller's deadline, and was not applied */
    public static long[] tooLate() {
        return new long[] {EXPIRED};
    }

    /**
     * @return the outcome encoded by {@link #of(Outcome)}
     * @throws IllegalStateException if the decision came too late to be applied ({@link #tooLate()})
     */
    public static Outcome read(long[] wire) {
        if (isTooLate(wire)) {
            throw Outcome.expiredFailure();
        }
        if (wire == null || wire.length != LENGTH) {
            throw new IllegalArgumentException("malformed outcome");
        }
        return outcome(wire, 0);
    }

    /**
     * @return the outcomes encoded by {@link #of(Outcome[])}, {@link Outcome#expired()} for those not applied
     * @throws IllegalStateException if the whole batch came too late to be applied ({@link #tooLate()})
     */
    public static Outcome[] readAll(long[] wire) {
        if (isTooLate(wire)) {
            throw Outcome.expiredFailure();
        }
        if (wire == null || wire.length % LENGTH != 0) {
            throw new IllegalArgumentException("malformed outcomes");
        }
        Outcome[] outcomes = new Outcome[wire.length / LENGTH];
        for (int i = 0; i < outcomes.length; i++) {
            outcomes[i] = outcome(wire, i * LENGTH);
        }
        return outcomes;
    }

    private static boolean isTooLate(long[] wire) {
        return wire != null && wire.length == 1 && wire[0] == EXPIRED;
    }

    private static Outcome outcome(long[] wire, int at) {
        return wire[at] == EXPIRED ? Outcome.expired()
                : Outcome.decided(wire[at] == 1, (int) wire[at + 1], wire[at + 2], wire[at + 3], wire[at + 4]);
    }
}
