package io.tollgate.integration.hostile;

import java.util.HashMap;
import java.util.Map;

/** The oracle's buckets, as the README describes them: {@code burst} tokens each, none refilled (the clock stands still). */
final class ExpectedBuckets {

    private final long burst;
    private final Map<String, Long> taken = new HashMap<>();

    ExpectedBuckets(long burst) {
        this.burst = burst;
    }

    /** @return whether a request of {@code cost} for {@code key} must pass; if so, it is charged */
    boolean charge(String key, long cost) {
        long used = taken.getOrDefault(key, 0L);
        if (used + cost > burst) {
            return false;
        }
        taken.put(key, used + cost);
        return true;
    }

    long remaining(String key) {
        return burst - taken.getOrDefault(key, 0L);
    }

    int count() {
        return taken.size();
    }
}
