package io.tollgate.internal.core;

/**
 * The layout of a bucket's stored state, read and written by name: {@code 1 + 2n} longs for {@code n} limits,
 * {@code [time µs, unitsPerToken_0, units_0, unitsPerToken_1, units_1, ...]}. Static accessors over the array
 * itself, so that a decision allocates nothing but the state it stores.
 */
final class BucketState {

    private BucketState() {
    }

    /** @return a state of {@code limits} limits at {@code time}, every limit still to be set */
    static long[] create(int limits, long time) {
        long[] state = new long[1 + 2 * limits];
        state[0] = time;
        return state;
    }

    /** @return whether {@code length} longs can be a state of some number of limits */
    static boolean isLayout(int length) {
        return length >= 3 && length % 2 == 1;
    }

    /** @return the number of limits {@code state} holds */
    static int limitCount(long[] state) {
        return (state.length - 1) / 2;
    }

    /** @return the time of {@code state}, in µs since the epoch: when its units were last counted */
    static long time(long[] state) {
        return state[0];
    }

    /** @return the units worth one token in limit {@code limit}: the scale its units were counted in */
    static long unitsPerToken(long[] state, int limit) {
        return state[1 + 2 * limit];
    }

    /** @return the units limit {@code limit} held at {@link #time} */
    static long units(long[] state, int limit) {
        return state[2 + 2 * limit];
    }

    /** @return the whole tokens limit {@code limit} held at {@link #time} */
    static long tokens(long[] state, int limit) {
        return units(state, limit) / unitsPerToken(state, limit);
    }

    /** Sets limit {@code limit} of {@code state} to {@code units}, counted {@code unitsPerToken} to a token. */
    static void set(long[] state, int limit, long unitsPerToken, long units) {
        state[1 + 2 * limit] = unitsPerToken;
        state[2 + 2 * limit] = units;
    }

    /** Takes {@code units} from limit {@code limit} of {@code state}. */
    static void take(long[] state, int limit, long units) {
        state[2 + 2 * limit] -= units;
    }
}
