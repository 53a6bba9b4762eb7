package io.tollgate.internal.core;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;

/**
 * The decision function of a rule: one or more {@link Limit}s charged all-or-nothing. Stateless
 * and immutable; the bucket's state is passed in and a new state handed back, so the same code
 * runs in the in-memory store and inside a Hazelcast entry processor.
 *
 * <p>The state is a {@code long[]} ({@link BucketState}: a timestamp in µs, then per limit its units per
 * token and its units); a missing
 * state is a full bucket. The timestamp never moves backwards: a clock that steps back cannot
 * mint tokens. A stored time more than {@link #MAX_AHEAD_MICROS} ahead of the deciding clock is
 * no clock step but a corrupt or hostile state: the bucket restarts empty at the deciding clock,
 * so such a state can neither deny its key for good nor mint tokens. Each limit's scale is stored
 * with its units so a redeployed rule with another rate keeps the tokens its buckets held; a state
 * written under a rule with another number of limits is carried over conservatively (see
 * {@link #tryConsume}).
 */
public final class TokenBucket {

    /**
     * How far a stored time may be ahead of the deciding clock and still be waited for: one hour,
     * more than clocks of one cluster drift apart or step back under time synchronisation.
     */
    public static final long MAX_AHEAD_MICROS = 3_600_000_000L;

    /** The most limits one rule may have; also a bound on what a member accepts from the wire. */
    public static final int MAX_LIMITS = 16;
    /** Longs per limit in {@link #spec()}: its capacity in units, its refill in units per µs, its units per token. */
    private static final int SPEC_STRIDE = 3;
    private static final long MAX_PERIOD_MICROS = Limit.MAX_PERIOD.toSeconds() * 1_000_000L;

    private final long[] spec;
    private final long maxCost;

    private TokenBucket(long[] spec) {
        this.spec = spec;
        long min = Long.MAX_VALUE;
        for (int i = 0; i < limitCount(); i++) {
            min = Math.min(min, burst(i));
        }
        this.maxCost = min;
    }

    /**
     * @param limits one or more limits, all of which a request must satisfy
     * @return the bucket definition
     */
    public static TokenBucket of(List<Limit> limits) {
        if (limits == null || limits.isEmpty()) {
            throw InvalidDefinitionException.of("limits", limits, "a rule needs at least one limit");
        }
        if (limits.size() > MAX_LIMITS) {
            throw InvalidDefinitionException.of("limits", limits.size() + " limits", "a rule has at most " + MAX_LIMITS);
        }
        long[] spec = new long[limits.size() * SPEC_STRIDE];
        for (int i = 0; i < limits.size(); i++) {
            Limit limit = limits.get(i);
            spec[i * SPEC_STRIDE] = limit.capacityUnits();
            spec[i * SPEC_STRIDE + 1] = limit.refillUnitsPerMicro();
            spec[i * SPEC_STRIDE + 2] = limit.unitsPerToken();
        }
        return new TokenBucket(spec);
    }

    /** @see #of(List) */
    public static TokenBucket of(Limit... limits) {
        return of(Arrays.asList(limits));
    }

    /**
     * Rebuilds a definition from {@link #spec()}, as shipped to the member that owns a bucket.
     * The array is used as is, not copied.
     *
     * @throws IllegalArgumentException, saying what is wrong, unless {@code spec} is one that
     *         {@link #of(List)} could have made: 1 to {@link #MAX_LIMITS} limits, each with a capacity
     *         and a refill of 1 to 2^61 units, and units per token that divide the capacity and come
     *         from a period of at most {@link Limit#MAX_PERIOD}
     */
    public static TokenBucket fromSpec(long[] spec) {
        if (spec == null || spec.length == 0 || spec.length % SPEC_STRIDE != 0 || spec.length > MAX_LIMITS * SPEC_STRIDE) {
            throw new IllegalArgumentException("malformed bucket spec of " + (spec == null ? "null" : spec.length + " longs")
                    + ": expected 1 to " + MAX_LIMITS + " limits of " + SPEC_STRIDE + " longs each");
        }
        for (int i = 0; i < spec.length; i += SPEC_STRIDE) {
            long capacity = spec[i];
            long refill = spec[i + 1];
            long unitsPerToken = spec[i + 2];
            if (capacity < 1 || capacity > Limit.MAX_UNITS) {
                throw malformedSpec(i, "a capacity of " + capacity + " units, outside [1, 2^61]");
            }
            if (refill < 1 || refill > Limit.MAX_UNITS) {
                throw malformedSpec(i, "a refill of " + refill + " units per µs, outside [1, 2^61]");
            }
            if (unitsPerToken < 1 || unitsPerToken > MAX_PERIOD_MICROS || capacity % unitsPerToken != 0) {
                throw malformedSpec(i, unitsPerToken + " units per token, which do not divide its capacity of "
                        + capacity + " units or exceed the longest period");
            }
        }
        return new TokenBucket(spec);
    }

    /** Built only when a spec is refused: a valid one, checked on every decision, costs no string. */
    private static IllegalArgumentException malformedSpec(int index, String what) {
        return new IllegalArgumentException("malformed bucket spec: limit " + index / SPEC_STRIDE + " has " + what);
    }

    /**
     * Checks the layout of a stored state before anything is decided from it.
     *
     * @param state a stored state, or {@code null} for a full bucket
     * @throws IllegalArgumentException, saying what is wrong, unless {@code state} is {@code null} or
     *         holds a timestamp of at least 0 and 1 to {@link #MAX_LIMITS} limits, each with 1 to 2^61
     *         units per token and 0 to 2^61 units
     */
    public static void checkState(long[] state) {
        if (state == null) {
            return;
        }
        if (!BucketState.isLayout(state.length) || BucketState.limitCount(state) > MAX_LIMITS) {
            throw new IllegalArgumentException("malformed bucket state of " + state.length + " longs: expected a timestamp and 1 to "
                    + MAX_LIMITS + " limits of 2 longs each");
        }
        if (BucketState.time(state) < 0) {
            throw new IllegalArgumentException("malformed bucket state: a timestamp of " + BucketState.time(state) + " µs");
        }
        for (int i = 0; i < BucketState.limitCount(state); i++) {
            long unitsPerToken = BucketState.unitsPerToken(state, i);
            if (unitsPerToken < 1 || unitsPerToken > Limit.MAX_UNITS) {
                throw new IllegalArgumentException("malformed bucket state: limit " + i + " has " + unitsPerToken
                        + " units per token, outside [1, 2^61]");
            }
            long units = BucketState.units(state, i);
            if (units < 0 || units > Limit.MAX_UNITS) {
                throw new IllegalArgumentException("malformed bucket state: limit " + i + " holds " + units
                        + " units, outside [0, 2^61]");
            }
        }
    }

    /** @return the compact wire form: per limit its capacity in units, refill units/µs, units per token */
    public long[] spec() {
        return spec;
    }

    /** @return the number of limits */
    public int limitCount() {
        return spec.length / SPEC_STRIDE;
    }

    /** @return the largest cost a request may ask for: the smallest burst among the limits */
    public long maxCost() {
        return maxCost;
    }

    /**
     * Rejects a cost no bucket could ever grant, before any state is read or written.
     *
     * @throws InvalidDefinitionException if {@code cost} is negative or exceeds {@link #maxCost()}
     */
    public void checkCost(long cost) {
        if (cost < 0) {
            throw InvalidDefinitionException.of("cost", cost, "must not be negative");
        }
        if (cost > maxCost) {
            throw InvalidDefinitionException.of("cost", cost, "exceeds the burst " + maxCost + " of the rule, so it could never be granted");
        }
    }

    /**
     * Decides a request of {@code cost} tokens at time {@code now}.
     *
     * <p>A state stored under a rule with another number of limits (the rule was changed, and members
     * with the old and the new rule decide the same keys) cannot say which stored limit is which new
     * one. Every limit then starts from the fewest whole tokens any stored limit held at the stored
     * time, capped at its burst, and refills from that time at its own rate: never more than the old
     * rule would have granted at that moment.
     *
     * @param state the stored state, or {@code null} for a full bucket; not modified
     * @param cost  tokens asked for, {@code 0 <= cost <= maxCost()}; a cost of 0 only reads
     * @param now   the deciding clock, µs since the epoch
     * @return the outcome; its {@link Outcome#newState()} is {@code null} when nothing must be written
     * @throws IllegalArgumentException for a malformed state ({@link #checkState}): nothing is decided
     */
    public Outcome tryConsume(long[] state, long cost, long now) {
        checkCost(cost);
        checkState(state);
        boolean restart = state != null && tooFarAhead(BucketState.time(state), now);
        long[] next = refilled(state, now);
        int n = limitCount();
        boolean enough = true;
        long retryAfter = 0;
        int waitIndex = 0;
        for (int i = 0; i < n; i++) {
            long need = cost * unitsPerToken(i);
            long units = BucketState.units(next, i);
            if (units < need) {
                enough = false;
                long wait = ceilDiv(need - units, refillUnitsPerMicro(i));
                if (wait > retryAfter) {
                    retryAfter = wait;
                    waitIndex = i;
                }
            }
        }
        if (enough) {
            for (int i = 0; i < n; i++) {
                BucketState.take(next, i, cost * unitsPerToken(i));
            }
        }
        // a restart is written even on a denial, or it never ends
        return outcome(next, now, enough, enough ? tightest(next) : waitIndex, retryAfter, cost > 0 && (enough || restart));
    }

    /**
     * Gives {@code tokens} back to every limit of a bucket, each capped at its burst: what a request was charged
     * and, by its outcome, does not owe. A missing state is a full bucket, to which nothing can be added. A state of
     * another number of limits than this bucket's was written under other limits since the charge (the rule was
     * changed): no limit of it was charged as this bucket's were, so nothing is given back to it.
     *
     * @param state  the stored state, or {@code null} for a full bucket; not modified
     * @param tokens tokens to give back, at least 1
     * @param now    the deciding clock, µs since the epoch
     * @return an allowed outcome reporting the bucket after the refund; its {@link Outcome#newState()} is
     *         {@code null} when nothing must be written (the bucket was missing, full already, or of
     *         another number of limits)
     * @throws InvalidDefinitionException if {@code tokens} is less than 1
     * @throws IllegalArgumentException for a malformed state ({@link #checkState}): nothing is changed
     */
    public Outcome refund(long[] state, long tokens, long now) {
        if (tokens < 1) {
            throw InvalidDefinitionException.of("tokens", tokens, "must be at least 1");
        }
        checkState(state);
        long[] next = refilled(state, now);
        if (state != null && BucketState.limitCount(state) != limitCount()) {
            return outcome(next, now, true, tightest(next), 0, false);
        }
        boolean changed = false;
        for (int i = 0; i < limitCount(); i++) {
            long units = BucketState.units(next, i);
            long capacity = capacityUnits(i);
            long back = tokens >= burst(i) ? capacity : Math.min(capacity, units + tokens * unitsPerToken(i));
            changed |= back != units;
            BucketState.set(next, i, unitsPerToken(i), back);
        }
        return outcome(next, now, true, tightest(next), 0, state != null && changed);
    }

    /**
     * Reads where each limit stands at {@code now}, as a request of cost 0 would find it; decides and
     * changes nothing.
     *
     * @param state the stored state, or {@code null} for a full bucket; not modified
     * @return one level per limit, in the rule's order
     * @throws IllegalArgumentException for a malformed state ({@link #checkState})
     */
    public List<LimitLevel> levels(long[] state, long now) {
        checkState(state);
        long[] current = refilled(state, now);
        long ahead = BucketState.time(current) - now;
        LimitLevel[] levels = new LimitLevel[limitCount()];
        for (int i = 0; i < levels.length; i++) {
            long untilFull = untilFull(current, i);
            levels[i] = new LimitLevel(BucketState.tokens(current, i), burst(i), untilFull == 0 ? 0 : untilFull + ahead);
        }
        return List.of(levels);
    }

    /**
     * @param state the stored state, or {@code null} for a full bucket; not modified
     * @return µs from {@code now} until {@code state}, read under these limits (as {@link #tryConsume} reads it), is
     *         full in every limit: how long it must be kept, so that it never comes back fuller than these limits
     *         refill it; 0 if it is full already
     * @throws IllegalArgumentException for a malformed state ({@link #checkState})
     */
    public long untilFullMicros(long[] state, long now) {
        checkState(state);
        if (state == null) {
            return 0;
        }
        long[] current = refilled(state, now);
        long fullAfter = 0;
        for (int i = 0; i < limitCount(); i++) {
            fullAfter = Math.max(fullAfter, untilFull(current, i));
        }
        return fullAfter == 0 ? 0 : fullAfter + BucketState.time(current) - now;
    }

    /**
     * @return the state at {@code max(stored time, now)} with every limit refilled: a full bucket at {@code now}
     *         for none, an empty one at {@code now} for a state too far ahead, a state of another number of limits
     *         carried over ({@link #carried})
     */
    private long[] refilled(long[] state, long now) {
        int n = limitCount();
        long[] stored = state == null || BucketState.limitCount(state) == n ? state : carried(state);
        boolean fresh = stored == null;
        boolean restart = !fresh && tooFarAhead(BucketState.time(stored), now);
        long last = fresh || restart ? now : BucketState.time(stored);
        long ts = Math.max(last, now);
        long elapsed = ts - last;
        long[] next = BucketState.create(n, ts);
        for (int i = 0; i < n; i++) {
            long capacity = capacityUnits(i);
            long unitsPerToken = unitsPerToken(i);
            long units = fresh ? capacity : restart ? 0
                    : rescale(BucketState.units(stored, i), BucketState.unitsPerToken(stored, i), unitsPerToken, capacity);
            BucketState.set(next, i, unitsPerToken, refill(units, capacity, refillUnitsPerMicro(i), elapsed));
        }
        return next;
    }

    /** @return the outcome reporting limit {@code reported} of {@code next}, which is stored if {@code write} */
    private Outcome outcome(long[] next, long now, boolean allowed, int reported, long retryAfter, boolean write) {
        long ahead = BucketState.time(next) - now; // > 0 only if this member's clock is behind the stored time
        long fullAfter = 0;
        for (int i = 0; i < limitCount(); i++) {
            fullAfter = Math.max(fullAfter, untilFull(next, i));
        }
        return new Outcome(allowed, reported, BucketState.tokens(next, reported), untilFull(next, reported) + ahead,
                allowed ? 0 : retryAfter + ahead, write ? next : null, fullAfter + ahead);
    }

    /**
     * Decides several requests on one bucket at the same instant, in order, each seeing the state
     * the previous ones left: exactly as if they had arrived one after another.
     *
     * @param outcomes filled with one outcome per cost (their {@link Outcome#newState()} is not meaningful)
     * @return the state to store, or {@code null} if none of them changed it
     */
    public long[] tryConsumeAll(long[] state, long[] costs, long now, Outcome[] outcomes) {
        long[] current = state;
        boolean changed = false;
        for (int i = 0; i < costs.length; i++) {
            Outcome outcome = tryConsume(current, costs[i], now);
            outcomes[i] = outcome;
            if (outcome.newState() != null) {
                current = outcome.newState();
                changed = true;
            }
        }
        return changed ? current : null;
    }

    /**
     * A stored state of another number of limits, as one of this rule's limits: the fewest whole tokens
     * any stored limit held, capped at each limit's burst, at the stored time.
     */
    private long[] carried(long[] state) {
        long fewest = Long.MAX_VALUE;
        for (int j = 0; j < BucketState.limitCount(state); j++) {
            fewest = Math.min(fewest, BucketState.tokens(state, j));
        }
        long[] carried = BucketState.create(limitCount(), BucketState.time(state));
        for (int i = 0; i < limitCount(); i++) {
            BucketState.set(carried, i, unitsPerToken(i), Math.min(fewest, burst(i)) * unitsPerToken(i));
        }
        return carried;
    }

    /** The capacity in tokens of limit {@code index}. */
    public long burst(int index) {
        return capacityUnits(index) / unitsPerToken(index);
    }

    /** @return the capacity of limit {@code index}, in units */
    private long capacityUnits(int index) {
        return spec[index * SPEC_STRIDE];
    }

    /** @return the units limit {@code index} gains per µs */
    private long refillUnitsPerMicro(int index) {
        return spec[index * SPEC_STRIDE + 1];
    }

    /** @return the units worth one token in limit {@code index} */
    private long unitsPerToken(int index) {
        return spec[index * SPEC_STRIDE + 2];
    }

    private int tightest(long[] next) {
        int best = 0;
        long bestRemaining = Long.MAX_VALUE;
        long bestReset = -1;
        for (int i = 0; i < limitCount(); i++) {
            long remaining = BucketState.tokens(next, i);
            long reset = untilFull(next, i);
            if (remaining < bestRemaining || (remaining == bestRemaining && reset > bestReset)) {
                best = i;
                bestRemaining = remaining;
                bestReset = reset;
            }
        }
        return best;
    }

    /** @return µs until limit {@code i} of {@code next} is full */
    private long untilFull(long[] next, int i) {
        return ceilDiv(capacityUnits(i) - BucketState.units(next, i), refillUnitsPerMicro(i));
    }

    /** @return whether {@code stored} is more than {@link #MAX_AHEAD_MICROS} after {@code now}, overflow included */
    private static boolean tooFarAhead(long stored, long now) {
        long ahead = stored - now;
        return stored > now && (ahead > MAX_AHEAD_MICROS || ahead < 0);
    }

    static long refill(long units, long capacity, long refillPerMicro, long elapsed) {
        if (units >= capacity) {
            return capacity;
        }
        long missing = capacity - units;
        if (elapsed >= ceilDiv(missing, refillPerMicro)) {
            return capacity;
        }
        return units + elapsed * refillPerMicro; // < capacity + refillPerMicro <= 2^62: no overflow
    }

    /** Converts units stored under another scale (a rule whose rate changed), keeping whole tokens' worth. */
    static long rescale(long units, long storedUnitsPerToken, long unitsPerToken, long capacity) {
        if (storedUnitsPerToken == unitsPerToken || units <= 0) {
            return Math.min(Math.max(units, 0), capacity);
        }
        if (storedUnitsPerToken <= 0) {
            return capacity;
        }
        BigInteger converted = BigInteger.valueOf(units).multiply(BigInteger.valueOf(unitsPerToken))
                .divide(BigInteger.valueOf(storedUnitsPerToken));
        return converted.compareTo(BigInteger.valueOf(capacity)) >= 0 ? capacity : converted.longValue();
    }

    static long ceilDiv(long a, long b) {
        return -Math.floorDiv(-a, b);
    }

    @Override
    public boolean equals(Object o) {
        return o == this || o instanceof TokenBucket && Arrays.equals(spec, ((TokenBucket) o).spec);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(spec);
    }
}
