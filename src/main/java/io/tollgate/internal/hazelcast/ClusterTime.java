package io.tollgate.internal.hazelcast;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.spi.properties.ClusterProperty;
import com.hazelcast.spi.properties.HazelcastProperties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * Hazelcast's cluster time as Tollgate's deadlines need it: the same on every member, through the
 * transient errors of Hazelcast's own value. A member's cluster time is its wall clock plus a
 * difference that each heartbeat of the master corrects, so it goes wrong for a while in two ways:
 * <ul>
 * <li>the member's wall clock steps (NTP steps anything over 128 ms): its cluster time steps with it
 *     until the master's next heartbeat corrects the difference;</li>
 * <li>the member was paused (a long GC, a frozen VM): it reads the heartbeats that queued up meanwhile,
 *     and its cluster time falls back by up to the pause until a fresh one arrives — just when it works
 *     through the decisions that waited for it, whose deadlines it would then miss.</li>
 * </ul>
 * A step of the master's wall clock, though, moves the cluster time of every member for good, each at
 * its next heartbeat. So this keeps the offset from the monotonic clock it has adopted and follows
 * Hazelcast's value at once while it stays within {@value #FOLLOW_MILLIS} ms of it (heartbeat jitter,
 * slow drift); a larger change is adopted only once the same change (within {@value #FOLLOW_MILLIS} ms)
 * has lasted for the settling period, three heartbeat intervals, so that the transient ones never are
 * (nor the fall back after a pause that began while another change was settling). The first reading
 * is adopted at once.
 * The fast path is one volatile read; the state changes only when a heartbeat changed Hazelcast's value.
 */
final class ClusterTime {

    /** Changes of Hazelcast's cluster time up to this are followed at once. */
    static final long FOLLOW_MILLIS = 100;
    /** Heartbeat intervals a larger change must last before it is adopted. */
    static final int SETTLING_HEARTBEATS = 3;

    /** One per instance name, so every caller and processor on a member shares what it has seen. */
    private static final ConcurrentHashMap<String, ClusterTime> BY_INSTANCE = new ConcurrentHashMap<>();

    private final long settleNanos;
    private final LongSupplier nanoTime;
    private final AtomicReference<State> state = new AtomicReference<>();

    /**
     * @param settleMillis how long a change beyond {@value #FOLLOW_MILLIS} ms must last to be adopted
     * @param nanoTime     the monotonic clock ({@link System#nanoTime()})
     */
    ClusterTime(long settleMillis, LongSupplier nanoTime) {
        this.settleNanos = TimeUnit.MILLISECONDS.toNanos(settleMillis);
        this.nanoTime = nanoTime;
    }

    /** @return the cluster time of the member named like {@code member}, having read it once */
    static ClusterTime of(HazelcastInstance member) {
        ClusterTime time = BY_INSTANCE.get(member.getName());
        if (time == null) {
            time = BY_INSTANCE.computeIfAbsent(member.getName(), name -> new ClusterTime(settleMillis(member), System::nanoTime));
            time.now(member); // adopts the first reading now, not after a pause to come
        }
        return time;
    }

    /** @return whether the member named like {@code member} has read its cluster time (for tests) */
    static boolean read(HazelcastInstance member) {
        return BY_INSTANCE.containsKey(member.getName());
    }

    private static long settleMillis(HazelcastInstance member) {
        long heartbeat;
        try {
            heartbeat = new HazelcastProperties(member.getConfig()).getMillis(ClusterProperty.HEARTBEAT_INTERVAL_SECONDS);
        } catch (RuntimeException e) {
            heartbeat = TimeUnit.SECONDS.toMillis(Integer.parseInt(ClusterProperty.HEARTBEAT_INTERVAL_SECONDS.getDefaultValue()));
        }
        return SETTLING_HEARTBEATS * heartbeat;
    }

    /** @return how long a change beyond {@value #FOLLOW_MILLIS} ms must last to be adopted */
    long settleMillis() {
        return TimeUnit.NANOSECONDS.toMillis(settleNanos);
    }

    /** @return the cluster time of {@code member} in milliseconds */
    long now(HazelcastInstance member) {
        return now(member.getCluster().getClusterTime());
    }

    /**
     * @param hazelcast Hazelcast's cluster time on this member, just read (ms)
     * @return the cluster time to check deadlines against (ms)
     */
    long now(long hazelcast) {
        long nanos = nanoTime.getAsLong();
        long monotonic = TimeUnit.NANOSECONDS.toMillis(nanos);
        State current = state.get();
        if (current == null) {
            state.compareAndSet(null, new State(hazelcast - monotonic, nanos, false));
            return hazelcast;
        }
        long adopted = monotonic + current.offset;
        long change = hazelcast - adopted;
        if (Math.abs(change) <= FOLLOW_MILLIS) {
            if (current.changing || Math.abs(change) > 1) { // a heartbeat moved it, or a change did not last
                state.compareAndSet(current, new State(hazelcast - monotonic, nanos, false));
                return hazelcast;
            }
            return adopted; // the same within the rounding of the two clocks' milliseconds
        }
        long proposed = hazelcast - monotonic;
        if (!current.changing || Math.abs(proposed - current.proposed) > FOLLOW_MILLIS) {
            state.compareAndSet(current, new State(current.offset, nanos, true, proposed)); // a new change: it settles from now
            return adopted;
        }
        if (nanos - current.since >= settleNanos) {
            state.compareAndSet(current, new State(proposed, nanos, false));
            return hazelcast;
        }
        return adopted;
    }

    /**
     * @param offset   the adopted cluster time minus the monotonic clock (ms)
     * @param since    when Hazelcast's value began to differ by more than {@value #FOLLOW_MILLIS} ms (if changing)
     * @param changing whether it differs so now
     * @param proposed if changing, the offset Hazelcast's value then had: the change that must last, within
     *                 {@value #FOLLOW_MILLIS} ms, to be adopted (a different one, such as the fall back after a pause
     *                 that began while another change was settling, settles from its own start)
     */
    private record State(long offset, long since, boolean changing, long proposed) {
        State(long offset, long since, boolean changing) {
            this(offset, since, changing, offset);
        }
    }
}
