package io.tollgate.internal.hazelcast;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.map.EntryProcessor;
import com.hazelcast.map.ExtendedMapEntry;
import com.hazelcast.nio.serialization.DataSerializable;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.tollgate.internal.core.Clock;
import io.tollgate.internal.core.TokenBucket;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What Tollgate's deciding processors share: the rule's limits, the wire version they travel in,
 * the owner's clocks (cluster time for deadlines, the decision clock), reading the stored state
 * safely, and writing a new state with its time-to-live (the time until the bucket is full again,
 * plus a margin) while handing that state to the backups in the same wire version.
 */
abstract class OwnerProcessor implements EntryProcessor<String, long[], long[]>, DataSerializable, HazelcastInstanceAware {

    /** Added to the time-to-full so clock differences between members never expire a live bucket early. */
    static final long TTL_MARGIN_MILLIS = 2_000;

    private TokenBucket bucket;
    private int version;
    private transient Clock clock = Clock.SYSTEM;
    private transient HazelcastInstance member;
    private transient ClusterTime clusterTime;
    private transient StateBackup backup;

    OwnerProcessor() {
    }

    OwnerProcessor(TokenBucket bucket, int version) {
        this.bucket = bucket;
        this.version = version;
    }

    /**
     * Called on the member that runs this processor. Its {@link ClusterTime} is read here even for a
     * decision without a deadline (the warm-up's), so that a member adopts its first reading while it
     * runs normally: first read just after a pause, Hazelcast's value can be behind by the pause, and a
     * first reading is adopted at once.
     */
    @Override
    public void setHazelcastInstance(HazelcastInstance member) {
        this.member = member;
        this.clock = MemberClock.of(member);
        this.clusterTime = ClusterTime.of(member);
    }

    /** @return this member's cluster time (ms) for checking deadlines, or 0 where there is none */
    final long clusterNow() {
        return member == null ? 0 : clusterTime.now(member);
    }

    /** @return whether {@code deadline} (cluster time, 0 for none) has passed, so the decision must not be applied */
    final boolean passed(long deadline) {
        return deadline != 0 && passed(deadline, clusterNow());
    }

    /** @return whether {@code deadline} (cluster time, 0 for none) has passed at {@code clusterNow} (0: unknown) */
    static boolean passed(long deadline, long clusterNow) {
        return deadline != 0 && clusterNow != 0 && clusterNow > deadline;
    }

    final TokenBucket bucket() {
        return bucket;
    }

    /** @return the wire version this processor travels in, and its backup with it */
    final int version() {
        return version;
    }

    /** Sets what {@code readData} read and checked. */
    final void read(TokenBucket bucket, int version) {
        this.bucket = bucket;
        this.version = version;
    }

    final long now() {
        return clock.nowMicros();
    }

    /**
     * @return the stored state, {@code null} for none
     * @throws IllegalStateException if it is not a state Tollgate could have written: nothing is decided or written
     */
    static long[] storedState(Map.Entry<String, long[]> entry) {
        Object value = ((Map.Entry<?, ?>) entry).getValue();
        try {
            if (value != null && !(value instanceof long[])) {
                throw new IllegalArgumentException("a " + value.getClass().getName() + " where a bucket state belongs");
            }
            TokenBucket.checkState((long[]) value);
            return (long[]) value;
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("Tollgate refuses to decide on bucket '" + entry.getKey() + "': " + e.getMessage()
                    + "; nothing was written", e);
        }
    }

    /** Stores {@code state}, to expire when it is worth nothing, and makes the backups copy it. */
    final void store(Map.Entry<String, long[]> entry, long[] state, long fullAfterMicros) {
        long ttlMillis = TimeUnit.MICROSECONDS.toMillis(fullAfterMicros) + TTL_MARGIN_MILLIS;
        ((ExtendedMapEntry<String, long[]>) entry).setValue(state, ttlMillis, TimeUnit.MILLISECONDS);
        backup = StateBackup.create(state, ttlMillis, this instanceof IdentifiedDataSerializable, version);
    }

    @Override
    public EntryProcessor<String, long[], long[]> getBackupProcessor() {
        return backup;
    }
}
