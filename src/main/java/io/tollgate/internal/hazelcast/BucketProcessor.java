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
 * step on the partition thread. Ships the rule's limits, the cost and the caller's deadline (a few
 * longs); returns the outcome as five longs, or {@code {-1}} if it arrived after the deadline and was
 * not applied. On a grant it stores the new state and hands it to the backups; on a denial it writes
 * nothing. Written and read in wire version 0 or 1 ({@link WireFormat}).
 */
class BucketProcessor extends OwnerProcessor {

    private static final String WHAT = "Tollgate's BucketProcessor";

    private long cost;
    private long deadline;

    BucketProcessor() {
    }

    BucketProcessor(TokenBucket bucket, long cost, long deadline, int version) {
        super(bucket, version);
        this.cost = cost;
        this.deadline = deadline;
    }

    /**
     * @param deadline cluster time (ms) after which the decision must not be applied, because its
     *                 caller no longer waits; 0 for none
     * @param version  the wire version to send it in
     */
    static BucketProcessor create(TokenBucket bucket, long cost, long deadline, boolean identified, int version) {
        return identified ? new Identified(bucket, cost, deadline, version) : new BucketProcessor(bucket, cost, deadline, version);
    }

    @Override
    public long[] process(Map.Entry<String, long[]> entry) {
        if (passed(deadline)) {
            return OutcomeWire.tooLate();
        }
        Outcome outcome = bucket().tryConsume(storedState(entry), cost, now());
        if (outcome.newState() != null) {
            store(entry, outcome.newState(), outcome.fullAfterMicros());
        }
        return OutcomeWire.of(outcome);
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        if (version() == Serialization.WIRE_V0) {
            out.writeLongArray(bucket().spec());
            out.writeLong(deadline);
            out.writeLong(cost);
        } else {
            WireFormat.writeVersion(out, version());
            out.writeLong(deadline);
            out.writeLong(cost);
            out.writeLongArray(bucket().spec());
        }
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        int head = in.readInt();
        int version = WireFormat.version(head, WHAT);
        long[] spec;
        if (version == Serialization.WIRE_V0) {
            spec = WireFormat.readLongs(in, head, WireFormat.MAX_SPEC, WHAT + ": a spec");
            deadline = in.readLong();
            cost = in.readLong();
        } else {
            deadline = in.readLong();
            cost = in.readLong();
            spec = WireFormat.readLongArray(in, WireFormat.MAX_SPEC, WHAT + ": a spec");
        }
        TokenBucket bucket = WireFormat.bucket(spec, WHAT);
        WireFormat.deadline(deadline, WHAT);
        WireFormat.cost(bucket, cost, WHAT);
        read(bucket, version);
    }

    /** The same processor, read by type id where {@link Serialization} is registered. */
    static final class Identified extends BucketProcessor implements IdentifiedDataSerializable {

        Identified() {
        }

        Identified(TokenBucket bucket, long cost, long deadline, int version) {
            super(bucket, cost, deadline, version);
        }

        @Override
        public int getFactoryId() {
            return Serialization.FACTORY_ID;
        }

        @Override
        public int getClassId() {
            return Serialization.BUCKET_PROCESSOR;
        }
    }
}
