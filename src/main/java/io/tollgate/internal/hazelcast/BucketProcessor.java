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
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Decides one request on the member that owns the bucket, on that member's clock, in one atomic
 * step on the partition thread. Ships the rule's limits and the cost (a few longs); returns the
 * outcome as five longs. On a grant it stores the new state with a time-to-live of "until full
 * again" plus a margin, and hands the state itself to the backups; on a denial it writes nothing.
 */
class BucketProcessor implements EntryProcessor<String, long[], long[]>, DataSerializable, HazelcastInstanceAware {

    /** Added to the time-to-full so clock differences between members never expire a live bucket early. */
    static final long TTL_MARGIN_MILLIS = 2_000;

    private long[] spec;
    private long cost;
    private long deadline;
    private transient Clock clock = Clock.SYSTEM;
    private transient HazelcastInstance member;
    private transient StateBackup backup;

    BucketProcessor() {
    }

    BucketProcessor(TokenBucket bucket, long cost, long deadline) {
        this.spec = bucket.spec();
        this.cost = cost;
        this.deadline = deadline;
    }

    /**
     * @param deadline cluster time (ms) after which the decision must not be applied, because its
     *                 caller no longer waits; 0 for none
     */
    static BucketProcessor create(TokenBucket bucket, long cost, long deadline, boolean identified) {
        return identified ? new Identified(bucket, cost, deadline) : new BucketProcessor(bucket, cost, deadline);
    }

    @Override
    public void setHazelcastInstance(HazelcastInstance member) {
        this.member = member;
        this.clock = MemberClock.of(member);
    }

    @Override
    public long[] process(Map.Entry<String, long[]> entry) {
        if (deadline != 0 && member != null && member.getCluster().getClusterTime() > deadline) {
            return Outcome.expiredWire();
        }
        Outcome outcome = TokenBucket.fromSpec(spec).tryConsume(entry.getValue(), cost, clock.nowMicros());
        long[] state = outcome.newState();
        if (state != null) {
            long ttlMillis = TimeUnit.MICROSECONDS.toMillis(outcome.fullAfterMicros()) + TTL_MARGIN_MILLIS;
            ((ExtendedMapEntry<String, long[]>) entry).setValue(state, ttlMillis, TimeUnit.MILLISECONDS);
            backup = StateBackup.create(state, ttlMillis, this instanceof IdentifiedDataSerializable);
        }
        return outcome.toWire();
    }

    @Override
    public EntryProcessor<String, long[], long[]> getBackupProcessor() {
        return backup;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        out.writeLongArray(spec);
        out.writeLong(cost);
        out.writeLong(deadline);
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        spec = in.readLongArray();
        cost = in.readLong();
        deadline = in.readLong();
    }

    /** The same processor, read by type id where {@link TollgateSerialization} is registered. */
    static final class Identified extends BucketProcessor implements IdentifiedDataSerializable {

        Identified() {
        }

        Identified(TokenBucket bucket, long cost, long deadline) {
            super(bucket, cost, deadline);
        }

        @Override
        public int getFactoryId() {
            return TollgateSerialization.FACTORY_ID;
        }

        @Override
        public int getClassId() {
            return TollgateSerialization.BUCKET_PROCESSOR;
        }
    }
}
