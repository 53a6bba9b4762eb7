package io.tollgate.internal.core;

import io.tollgate.Decision;

/**
 * What {@link TokenBucket#tryConsume} decided, plus the state to store. Travels between members
 * in the compact {@link #toWire()} form, which leaves the state behind. Within a batch, a request
 * that reached the store after its caller's deadline, and was not applied, is {@link #expired()}.
 */
public final class Outcome {

    private static final int WIRE_LENGTH = 5;
    /** The first of the five longs: 1 allowed, 0 denied, -1 not applied (too late). */
    private static final long WIRE_EXPIRED = -1;
    private static final String EXPIRED_MESSAGE = "the decision reached the store after its deadline and was not applied";
    private static final Outcome EXPIRED = new Outcome(false, 0, 0, 0, 0, null, 0);

    private final boolean allowed;
    private final int limitIndex;
    private final long remaining;
    private final long resetAfterMicros;
    private final long retryAfterMicros;
    private final long[] newState;
    private final long fullAfterMicros;

    Outcome(boolean allowed, int limitIndex, long remaining, long resetAfterMicros, long retryAfterMicros,
            long[] newState, long fullAfterMicros) {
        this.allowed = allowed;
        this.limitIndex = limitIndex;
        this.remaining = remaining;
        this.resetAfterMicros = resetAfterMicros;
        this.retryAfterMicros = retryAfterMicros;
        this.newState = newState;
        this.fullAfterMicros = fullAfterMicros;
    }

    /** @return whether the cost was granted */
    public boolean allowed() {
        return allowed;
    }

    /** @return the index of the limit this outcome reports */
    public int limitIndex() {
        return limitIndex;
    }

    /** @return whole tokens left in the reported limit */
    public long remaining() {
        return remaining;
    }

    /** @return µs until the reported limit is full */
    public long resetAfterMicros() {
        return resetAfterMicros;
    }

    /** @return µs until the cost is available in every limit; 0 if allowed */
    public long retryAfterMicros() {
        return retryAfterMicros;
    }

    /** @return the state to store, or {@code null} if nothing changed (a denial, or a cost of 0) */
    public long[] newState() {
        return newState;
    }

    /** @return µs until every limit is full, i.e. until the stored state is worth nothing */
    public long fullAfterMicros() {
        return fullAfterMicros;
    }

    /** @return the outcome of a request of a batch that reached the store after its deadline, and was not applied */
    public static Outcome expired() {
        return EXPIRED;
    }

    /** @return whether this is {@link #expired()}: nothing was decided, nothing charged */
    public boolean isExpired() {
        return this == EXPIRED;
    }

    /** @return the failure a caller of an {@link #expired()} request gets */
    public static IllegalStateException expiredFailure() {
        return new IllegalStateException(EXPIRED_MESSAGE);
    }

    /** @return the decision for {@code rule}, whose definition is {@code bucket} */
    public Decision toDecision(String rule, TokenBucket bucket, long cost) {
        if (isExpired()) {
            throw expiredFailure();
        }
        return Decision.of(rule, allowed, cost, remaining, bucket.burst(limitIndex), limitIndex,
                resetAfterMicros, retryAfterMicros);
    }

    /** @return several outcomes, five longs each, one after the other */
    public static long[] toWire(Outcome[] outcomes) {
        long[] wire = new long[outcomes.length * WIRE_LENGTH];
        for (int i = 0; i < outcomes.length; i++) {
            System.arraycopy(outcomes[i].toWire(), 0, wire, i * WIRE_LENGTH, WIRE_LENGTH);
        }
        return wire;
    }

    /**
     * @return the outcomes encoded by {@link #toWire(Outcome[])}, {@link #expired()} for those not applied
     * @throws IllegalStateException if the whole batch came too late to be applied ({@link #expiredWire()})
     */
    public static Outcome[] fromWireAll(long[] wire) {
        if (wire != null && wire.length == 1 && wire[0] == -1) {
            fromWire(wire);
        }
        if (wire == null || wire.length % WIRE_LENGTH != 0) {
            throw new IllegalArgumentException("malformed outcomes");
        }
        Outcome[] outcomes = new Outcome[wire.length / WIRE_LENGTH];
        for (int i = 0; i < outcomes.length; i++) {
            int o = i * WIRE_LENGTH;
            outcomes[i] = wire[o] == WIRE_EXPIRED ? EXPIRED
                    : new Outcome(wire[o] == 1, (int) wire[o + 1], wire[o + 2], wire[o + 3], wire[o + 4], null, 0);
        }
        return outcomes;
    }

    /** @return the decision without the state, as five longs */
    public long[] toWire() {
        if (isExpired()) {
            return new long[] {WIRE_EXPIRED, 0, 0, 0, 0};
        }
        return new long[] {allowed ? 1 : 0, limitIndex, remaining, resetAfterMicros, retryAfterMicros};
    }

    /**
     * A grant answered from tokens this member reserved ahead: the numbers of the reservation's outcome, with
     * {@code remaining} whole tokens left as far as this member knows.
     */
    public Outcome reservedGrant(long remaining) {
        return new Outcome(true, limitIndex, remaining, resetAfterMicros, 0, null, 0);
    }

    /**
     * A denial answered from a recent one without asking the store: the same numbers, aged by
     * {@code elapsedMicros}.
     */
    public Outcome aged(long elapsedMicros) {
        return new Outcome(allowed, limitIndex, remaining, Math.max(0, resetAfterMicros - elapsedMicros),
                Math.max(0, retryAfterMicros - elapsedMicros), null, 0);
    }

    /** @return the answer of a decision that reached the owner after its caller's deadline, and was not applied */
    public static long[] expiredWire() {
        return new long[] {-1};
    }

    /**
     * @return the outcome encoded by {@link #toWire()} (without state)
     * @throws IllegalStateException if the decision came too late to be applied ({@link #expiredWire()})
     */
    public static Outcome fromWire(long[] wire) {
        if (wire != null && wire.length == 1 && wire[0] == -1) {
            throw expiredFailure();
        }
        if (wire == null || wire.length != WIRE_LENGTH) {
            throw new IllegalArgumentException("malformed outcome");
        }
        return new Outcome(wire[0] == 1, (int) wire[1], wire[2], wire[3], wire[4], null, 0);
    }
}
