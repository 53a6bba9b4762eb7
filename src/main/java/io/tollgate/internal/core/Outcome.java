package io.tollgate.internal.core;

/**
 * What {@link TokenBucket#tryConsume} decided, plus the state to store. Within a batch, a request
 * that reached the store after its caller's deadline, and was not applied, is {@link #expired()}.
 */
public final class Outcome {

    private static final String EXPIRED_MESSAGE = "the decision reached the store after its deadline and was not applied";
    private static final Outcome EXPIRED = new Outcome(false, 0, 0, 0, 0, null, 0);

    private final boolean allowed;
    private final int limitIndex;
    private final long remaining;
    private final long resetAfterMicros;
    private final long retryAfterMicros;
    private final long[] newState;
    private final long fullAfterMicros;
    /** Whether this member answered it from a recent denial ({@link #aged}) rather than the store. */
    private final boolean remembered;

    Outcome(boolean allowed, int limitIndex, long remaining, long resetAfterMicros, long retryAfterMicros,
            long[] newState, long fullAfterMicros) {
        this(allowed, limitIndex, remaining, resetAfterMicros, retryAfterMicros, newState, fullAfterMicros, false);
    }

    private Outcome(boolean allowed, int limitIndex, long remaining, long resetAfterMicros, long retryAfterMicros,
            long[] newState, long fullAfterMicros, boolean remembered) {
        this.allowed = allowed;
        this.limitIndex = limitIndex;
        this.remaining = remaining;
        this.resetAfterMicros = resetAfterMicros;
        this.retryAfterMicros = retryAfterMicros;
        this.newState = newState;
        this.fullAfterMicros = fullAfterMicros;
        this.remembered = remembered;
    }

    /**
     * @return a decision as another member reports it: its numbers without the state
     *         ({@link #newState()} {@code null})
     */
    public static Outcome decided(boolean allowed, int limitIndex, long remaining, long resetAfterMicros,
            long retryAfterMicros) {
        return new Outcome(allowed, limitIndex, remaining, resetAfterMicros, retryAfterMicros, null, 0);
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
                Math.max(0, retryAfterMicros - elapsedMicros), null, 0, true);
    }

    /** @return whether this denial was answered from a recent one ({@link #aged}), without asking the store */
    public boolean isRemembered() {
        return remembered;
    }
}
