package io.tollgate.internal.limiter;

import io.tollgate.DeniedKey;
import io.tollgate.internal.core.BucketKeys;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The most denied keys of one rule over the minute of the clock in progress and the whole minute before it: for
 * each of a few stripes (a thread counts in the stripe of its id, so that a flood from many threads shares no one
 * lock), a {@link SpaceSaving} summary per minute, the older dropped as a new minute starts. Read out, the summaries
 * are merged as mergeable summaries are: a key's count is its counts where it is held plus the floor of every
 * summary that does not hold it, and its error what those floors and its own errors add up to, so that the error is
 * at most the window's denials over the capacity and every key denied more often than that is listed.
 */
final class DenialWindow {

    private static final long MINUTE_MICROS = 60_000_000L;

    private final Stripe[] stripes;

    /**
     * @param capacity keys held per summary
     * @param stripes  a power of two
     */
    DenialWindow(int capacity, int stripes) {
        this.stripes = new Stripe[stripes];
        for (int i = 0; i < stripes; i++) {
            this.stripes[i] = new Stripe(capacity);
        }
    }

    void add(String key, long nowMicros) {
        Stripe stripe = stripes[(int) Thread.currentThread().getId() & (stripes.length - 1)];
        synchronized (stripe) {
            stripe.roll(minute(nowMicros));
            stripe.current.add(key);
        }
    }

    /** @return at most {@code limit} keys, most denied first (by count, then by the fewest certain), hashed */
    List<DeniedKey> top(long nowMicros, int limit) {
        Map<String, long[]> merged = new HashMap<>(); // key: {sum of (count - floor) where held, sum of (count - error)}
        long floors = 0;
        for (Stripe stripe : stripes) {
            synchronized (stripe) {
                stripe.roll(minute(nowMicros));
                floors += merge(stripe.current, merged) + merge(stripe.previous, merged);
            }
        }
        long allFloors = floors;
        return merged.entrySet().stream()
                .map(entry -> new Tally(entry.getKey(), allFloors + entry.getValue()[0], entry.getValue()[1]))
                .sorted(Comparator.comparingLong(Tally::count).thenComparingLong(Tally::lower).reversed())
                .limit(limit)
                .map(tally -> new DeniedKey(BucketKeys.hash(tally.key()), tally.count(), tally.count() - tally.lower()))
                .toList();
    }

    /** @return the summary's floor, which every key it does not hold may have had */
    private static long merge(SpaceSaving summary, Map<String, long[]> merged) {
        long floor = summary.floor();
        summary.forEach((key, count, error) -> {
            long[] sums = merged.computeIfAbsent(key, k -> new long[2]);
            sums[0] += count - floor;
            sums[1] += count - error;
        });
        return floor;
    }

    private static long minute(long micros) {
        return Math.floorDiv(micros, MINUTE_MICROS);
    }

    private record Tally(String key, long count, long lower) {
    }

    private static final class Stripe {
        SpaceSaving current;
        SpaceSaving previous;
        long minute = Long.MIN_VALUE;

        Stripe(int capacity) {
            current = new SpaceSaving(capacity);
            previous = new SpaceSaving(capacity);
        }

        /** Makes {@code minute} the current one; a clock that went back counts on in the minute it had. */
        void roll(long now) {
            if (now <= minute) {
                return;
            }
            SpaceSaving older = previous;
            older.clear();
            if (now == minute + 1) {
                previous = current;
                current = older;
            } else {
                current.clear();
            }
            minute = now;
        }
    }
}
