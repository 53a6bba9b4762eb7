package io.tollgate.internal.core;

/**
 * Merges the two histories of one bucket that the two sides of a split cluster kept apart, so that the healed
 * cluster never holds more tokens than either side did: per limit, the fewer tokens, at the later of the two times.
 *
 * <p>No rule is needed: a state held {@code u} units at its time {@code t}, and a bucket only gains units as time
 * passes, so at the later time {@code t'} it holds at least {@code u}; the smaller of the two sides' units, dated
 * {@code t'}, is at most what either side holds then. A state written under another scale (a rule whose rate
 * changed) is counted in the later state's scale; one of another number of limits gives the later state's every
 * limit at most its fewest whole tokens. A missing state is a full bucket, so the other one is kept; a malformed
 * state loses to a well-formed one.
 */
public final class BucketMerge {

    private BucketMerge() {
    }

    /**
     * @param a one side's state, or {@code null} for none (a full bucket)
     * @param b the other side's, or {@code null}
     * @return the merged state: a new array, or one of the two if the other is missing or malformed; {@code null}
     *         only if both are
     */
    public static long[] merge(long[] a, long[] b) {
        if (a == null || !wellFormed(a)) {
            return b != null && wellFormed(b) ? b : a;
        }
        if (b == null || !wellFormed(b)) {
            return a;
        }
        long[] later = BucketState.time(a) >= BucketState.time(b) ? a : b;
        long[] earlier = later == a ? b : a;
        long[] merged = later.clone();
        int limits = BucketState.limitCount(later);
        if (BucketState.limitCount(earlier) == limits) {
            for (int i = 0; i < limits; i++) {
                long upt = BucketState.unitsPerToken(later, i);
                long theirs = TokenBucket.rescale(BucketState.units(earlier, i), BucketState.unitsPerToken(earlier, i), upt,
                        Limit.MAX_UNITS);
                BucketState.set(merged, i, upt, Math.min(BucketState.units(later, i), theirs));
            }
            return merged;
        }
        long fewest = Long.MAX_VALUE;
        for (int j = 0; j < BucketState.limitCount(earlier); j++) {
            fewest = Math.min(fewest, BucketState.tokens(earlier, j));
        }
        for (int i = 0; i < limits; i++) {
            long upt = BucketState.unitsPerToken(later, i);
            long theirs = fewest > Limit.MAX_UNITS / upt ? Limit.MAX_UNITS : fewest * upt;
            BucketState.set(merged, i, upt, Math.min(BucketState.units(later, i), theirs));
        }
        return merged;
    }

    private static boolean wellFormed(long[] state) {
        try {
            TokenBucket.checkState(state);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
