package io.tollgate.internal.hazelcast;

import com.hazelcast.core.HazelcastInstance;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Hazelcast's cluster time as Tollgate's deadlines need it: never going back, and advancing at least
 * as fast as this JVM's monotonic clock. Hazelcast sets a member's cluster time from each heartbeat of
 * the master; a member that was paused (a long GC, a frozen VM) reads the heartbeats that queued up
 * meanwhile, and its cluster time falls back by up to the pause until a fresh one arrives — just when
 * it works through the decisions that waited for it, whose deadlines it would then miss. A lead of
 * more than a minute over Hazelcast's own value is given up (the cluster's clock really went back).
 */
final class ClusterTime {

    private static final long MAX_LEAD_MILLIS = 60_000;
    /** One per instance name, so every caller and processor on a member shares what it has seen. */
    private static final ConcurrentHashMap<String, ClusterTime> BY_INSTANCE = new ConcurrentHashMap<>();

    /** The largest offset seen from the monotonic clock (ms) to Hazelcast's cluster time. */
    private final AtomicLong offset = new AtomicLong(Long.MIN_VALUE);

    private ClusterTime() {
    }

    /** @return the cluster time of the instance named like {@code instance} */
    static ClusterTime of(HazelcastInstance instance) {
        return BY_INSTANCE.computeIfAbsent(instance.getName(), name -> new ClusterTime());
    }

    /** @return the cluster time of {@code instance} in milliseconds, never less than it was before */
    long now(HazelcastInstance instance) {
        long monotonic = TimeUnit.NANOSECONDS.toMillis(System.nanoTime());
        long hazelcast = instance.getCluster().getClusterTime();
        long now = monotonic + offset.accumulateAndGet(hazelcast - monotonic, Math::max);
        if (now - hazelcast > MAX_LEAD_MILLIS) {
            offset.set(hazelcast - monotonic);
            return hazelcast;
        }
        return now;
    }
}
