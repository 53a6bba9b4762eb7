package io.tollgate.internal.hazelcast;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.map.EntryProcessor;
import com.hazelcast.map.ExtendedMapEntry;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.DataSerializable;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.tollgate.internal.core.Clock;
import io.tollgate.internal.core.TokenBucket;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What Tollgate's deciding processors share: the rule's limits, the caller's deadline in cluster
 * time, the owner's clock, and writing a new state with its time-to-live (the time until the
 * bucket is full again, plus a margin) while handing that state to the backups.
 */
abstract class OwnerProcessor implements EntryProcessor<String, long[], long[]>, DataSerializable, HazelcastInstanceAware {

    /** Added to the time-to-full so clock differences between members never expire a live bucket early. */
    static final long TTL_MARGIN_MILLIS = 2_000;

    private long[] spec;
    private long deadline;
    private transient Clock clock = Clock.SYSTEM;
    private transient HazelcastInstance member;
    private transient StateBackup backup;

    OwnerProcessor() {
    }

    /** @param deadline cluster time (ms) after which the decision must not be applied; 0 for none */
    OwnerProcessor(TokenBucket bucket, long deadline) {
        this.spec = bucket.spec();
        this.deadline = deadline;
    }

    @Override
    public void setHazelcastInstance(HazelcastInstance member) {
        this.member = member;
        this.clock = MemberClock.of(member);
    }

    /** @return whether the caller's deadline has passed, so the decision must not be applied */
    final boolean tooLate() {
        return deadline != 0 && member != null && ClusterTime.of(member).now(member) > deadline;
    }

    final TokenBucket bucket() {
        return TokenBucket.fromSpec(spec);
    }

    final long now() {
        return clock.nowMicros();
    }

    /** Stores {@code state}, to expire when it is worth nothing, and makes the backups copy it. */
    final void store(Map.Entry<String, long[]> entry, long[] state, long fullAfterMicros) {
        long ttlMillis = TimeUnit.MICROSECONDS.toMillis(fullAfterMicros) + TTL_MARGIN_MILLIS;
        ((ExtendedMapEntry<String, long[]>) entry).setValue(state, ttlMillis, TimeUnit.MILLISECONDS);
        backup = StateBackup.create(state, ttlMillis, this instanceof IdentifiedDataSerializable);
    }

    @Override
    public final EntryProcessor<String, long[], long[]> getBackupProcessor() {
        return backup;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        out.writeLongArray(spec);
        out.writeLong(deadline);
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        spec = in.readLongArray();
        deadline = in.readLong();
    }
}
