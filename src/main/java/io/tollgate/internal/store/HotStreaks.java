package io.tollgate.internal.store;

/**
 * Which keys are hot here although their requests never overlap: a key whose requests arrive one at a time, each
 * answered before the next, never waits behind a call in flight, yet at a thousand a second it is as hot as one whose
 * requests pile up. This counts, per key, the requests that arrived in a row each within {@link #GAP_NANOS} of the one
 * before.
 *
 * <p>A small table indexed by the key's hash, without locks and without allocating: two keys sharing a slot, or two
 * threads writing one at once, only restart a count or lose a step of it. That delays or hastens one reserve and
 * nothing else: every token a reserve holds is taken from the bucket first.
 */
final class HotStreaks {

    /** Requests in a row, each within {@link #GAP_NANOS} of the one before, that make a key hot here. */
    static final int STREAK = 8;
    /** At most this long (2 ms) between two requests of a streak: a key at 500 requests a second or more. */
    static final long GAP_NANOS = 2_000_000;
    private static final int SLOTS = 256;

    private final String[] keys = new String[SLOTS];
    private final long[] lastNanos = new long[SLOTS];
    private final int[] streaks = new int[SLOTS];

    /**
     * Counts a request for {@code key} arriving at {@code nowNanos}.
     *
     * @return whether it ends a streak of {@link #STREAK} requests: the key is hot here
     */
    boolean hot(String key, long nowNanos) {
        int h = key.hashCode();
        int slot = (h ^ (h >>> 16)) & (SLOTS - 1);
        int streak = key.equals(keys[slot]) && nowNanos - lastNanos[slot] <= GAP_NANOS ? streaks[slot] + 1 : 1;
        keys[slot] = key;
        lastNanos[slot] = nowNanos;
        streaks[slot] = streak;
        return streak >= STREAK;
    }
}
