package io.tollgate.internal.hazelcast;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import java.io.IOException;
import java.util.Map;

/**
 * Decides one request on the member that owns the bucket, on that member's clock, in one atomic
 * step on the partition thread. Ships the rule's limits and the cost (a few longs); returns the
 * outcome as five longs. On a grant it stores the new state and hands it to the backups; on a
 * denial it writes nothing.
 */
class BucketProcessor extends OwnerProcessor {

    private long cost;

    BucketProcessor() {
    }

    BucketProcessor(TokenBucket bucket, long cost, long deadline) {
        super(bucket, deadline);
        this.cost = cost;
    }

    /**
     * @param deadline cluster time (ms) after which the decision must not be applied, because its
     *                 caller no longer waits; 0 for none
     */
    static BucketProcessor create(TokenBucket bucket, long cost, long deadline, boolean identified) {
        return identified ? new Identified(bucket, cost, deadline) : new BucketProcessor(bucket, cost, deadline);
    }

    @Override
    public long[] process(Map.Entry<String, long[]> entry) {
        if (tooLate()) {
            return Outcome.expiredWire();
        }
        Outcome outcome = bucket().tryConsume(entry.getValue(), cost, now());
        if (outcome.newState() != null) {
            store(entry, outcome.newState(), outcome.fullAfterMicros());
        }
        return outcome.toWire();
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        super.writeData(out);
        out.writeLong(cost);
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        super.readData(in);
        cost = in.readLong();
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
