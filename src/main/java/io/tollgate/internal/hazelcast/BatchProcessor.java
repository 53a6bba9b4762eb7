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
 * Several coalesced requests on one bucket, decided on the owner in arrival order in one atomic
 * step; the final state is written once and copied to the backups. Answers five longs per request.
 */
class BatchProcessor implements EntryProcessor<String, long[], long[]>, DataSerializable, HazelcastInstanceAware {

    private long[] spec;
    private long[] costs;
    private long deadline;
    private transient Clock clock = Clock.SYSTEM;
    private transient HazelcastInstance member;
    private transient StateBackup backup;

    BatchProcessor() {
    }

    BatchProcessor(TokenBucket bucket, long[] costs, long deadline) {
        this.spec = bucket.spec();
        this.costs = costs;
        this.deadline = deadline;
    }

    static BatchProcessor create(TokenBucket bucket, long[] costs, long deadline, boolean identified) {
        return identified ? new Identified(bucket, costs, deadline) : new BatchProcessor(bucket, costs, deadline);
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
        Outcome[] outcomes = new Outcome[costs.length];
        long[] state = TokenBucket.fromSpec(spec).tryConsumeAll(entry.getValue(), costs, clock.nowMicros(), outcomes);
        if (state != null) {
            long ttlMillis = TimeUnit.MICROSECONDS.toMillis(outcomes[outcomes.length - 1].fullAfterMicros())
                    + BucketProcessor.TTL_MARGIN_MILLIS;
            ((ExtendedMapEntry<String, long[]>) entry).setValue(state, ttlMillis, TimeUnit.MILLISECONDS);
            backup = StateBackup.create(state, ttlMillis, this instanceof IdentifiedDataSerializable);
        }
        return Outcome.toWire(outcomes);
    }

    @Override
    public EntryProcessor<String, long[], long[]> getBackupProcessor() {
        return backup;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        out.writeLongArray(spec);
        out.writeLongArray(costs);
        out.writeLong(deadline);
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        spec = in.readLongArray();
        costs = in.readLongArray();
        deadline = in.readLong();
    }

    /** The same processor, read by type id where {@link TollgateSerialization} is registered. */
    static final class Identified extends BatchProcessor implements IdentifiedDataSerializable {

        Identified() {
        }

        Identified(TokenBucket bucket, long[] costs, long deadline) {
            super(bucket, costs, deadline);
        }

        @Override
        public int getFactoryId() {
            return TollgateSerialization.FACTORY_ID;
        }

        @Override
        public int getClassId() {
            return TollgateSerialization.BATCH_PROCESSOR;
        }
    }
}
