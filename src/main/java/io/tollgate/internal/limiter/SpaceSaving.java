package io.tollgate.internal.limiter;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The Space-Saving summary (Metwally, Agrawal, El Abbadi, 2005) of a stream of keys: at most {@code capacity} keys,
 * each with a count that is never below its true count and at most its error above it. A key not held was seen at
 * most {@link #floor()} times, and the floor is at most the stream's length over the capacity. Counting a key held
 * already allocates nothing. Not thread-safe.
 */
final class SpaceSaving {

    private final Counter[] counters;
    private final Map<String, Counter> byKey;
    private int size;

    SpaceSaving(int capacity) {
        this.counters = new Counter[capacity];
        this.byKey = new HashMap<>(capacity * 2);
    }

    /** Counts one occurrence of {@code key}: a key not held while the summary is full takes the place of the least counted. */
    void add(String key) {
        Counter counter = byKey.get(key);
        if (counter != null) {
            counter.count++;
            return;
        }
        if (size < counters.length) {
            counter = new Counter();
            counters[size++] = counter;
        } else {
            counter = least();
            byKey.remove(counter.key);
            counter.error = counter.count;
        }
        counter.key = key;
        counter.count++;
        byKey.put(key, counter);
    }

    /** @return the most any key not held can have been seen: the least count when full, else 0 */
    long floor() {
        return size < counters.length ? 0 : least().count;
    }

    /** Hands each key held, its count and its error to {@code into}. */
    void forEach(Visitor into) {
        for (int i = 0; i < size; i++) {
            into.visit(counters[i].key, counters[i].count, counters[i].error);
        }
    }

    void clear() {
        byKey.clear();
        Arrays.fill(counters, null);
        size = 0;
    }

    private Counter least() {
        Counter least = counters[0];
        for (int i = 1; i < size; i++) {
            if (counters[i].count < least.count) {
                least = counters[i];
            }
        }
        return least;
    }

    @FunctionalInterface
    interface Visitor {
        void visit(String key, long count, long error);
    }

    private static final class Counter {
        String key;
        long count;
        long error;
    }
}
