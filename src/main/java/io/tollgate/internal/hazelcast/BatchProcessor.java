package io.tollgate.internal.hazelcast;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import java.io.IOException;
import java.util.Map;

/**
 * Several coalesced requests on one bucket, decided on the owner in arrival order in one atomic
 * step; the final state is written once and copied to the backups. Answers five longs per request.
 */
class BatchProcessor extends OwnerProcessor {

    private long[] costs;

    BatchProcessor() {
    }

    BatchProcessor(TokenBucket bucket, long[] costs, long deadline) {
        super(bucket, deadline);
        this.costs = costs;
    }

    static BatchProcessor create(TokenBucket bucket, long[] costs, long deadline, boolean identified) {
        return identified ? new Identified(bucket, costs, deadline) : new BatchProcessor(bucket, costs, deadline);
    }

    @Override
    public long[] process(Map.Entry<String, long[]> entry) {
        if (tooLate()) {
            return Outcome.expiredWire();
        }
        Outcome[] outcomes = new Outcome[costs.length];
        long[] state = bucket().tryConsumeAll(entry.getValue(), costs, now(), outcomes);
        if (state != null) {
            store(entry, state, outcomes[outcomes.length - 1].fullAfterMicros());
        }
        return Outcome.toWire(outcomes);
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        super.writeData(out);
        out.writeLongArray(costs);
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        super.readData(in);
        costs = in.readLongArray();
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
