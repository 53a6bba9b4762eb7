package io.tollgate.internal.hazelcast;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import java.io.IOException;
import java.util.Map;

/**
 * Gives tokens back to a bucket on the member that owns it, on that member's clock, in one atomic step on the
 * partition thread: what a request was charged and, by its outcome, does not owe. Each limit is capped at its
 * burst; a missing or expired bucket is full and stays untouched. Ships the rule's limits and the tokens; returns
 * the bucket after the refund as five longs. Carries no deadline: tokens owed back are owed however late they
 * arrive. Exists from wire version 2 on, the only version it is written in ({@link WireFormat}).
 */
class RefundProcessor extends OwnerProcessor {

    private static final String WHAT = "Tollgate's RefundProcessor";

    private long tokens;

    RefundProcessor() {
    }

    RefundProcessor(TokenBucket bucket, long tokens) {
        super(bucket, Serialization.WIRE_V2);
        this.tokens = tokens;
    }

    static RefundProcessor create(TokenBucket bucket, long tokens, boolean identified) {
        return identified ? new Identified(bucket, tokens) : new RefundProcessor(bucket, tokens);
    }

    @Override
    public long[] process(Map.Entry<String, long[]> entry) {
        Outcome outcome = bucket().refund(storedState(entry), tokens, now());
        if (outcome.newState() != null) {
            store(entry, outcome.newState(), outcome.fullAfterMicros());
        }
        return OutcomeWire.of(outcome);
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        WireFormat.writeVersion(out, version());
        out.writeLong(tokens);
        out.writeLongArray(bucket().spec());
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        int version = WireFormat.version(in.readInt(), WHAT);
        if (version < Serialization.WIRE_V2) {
            throw new IOException(WHAT + " in wire version " + version + ", which has no refunds");
        }
        tokens = in.readLong();
        TokenBucket bucket = WireFormat.bucket(WireFormat.readLongArray(in, WireFormat.MAX_SPEC, WHAT + ": a spec"), WHAT);
        if (tokens < 1) {
            throw new IOException(WHAT + ": a refund of " + tokens + " tokens");
        }
        read(bucket, version);
    }

    /** The same processor, read by type id where {@link Serialization} is registered. */
    static final class Identified extends RefundProcessor implements IdentifiedDataSerializable {

        Identified() {
        }

        Identified(TokenBucket bucket, long tokens) {
            super(bucket, tokens);
        }

        @Override
        public int getFactoryId() {
            return Serialization.FACTORY_ID;
        }

        @Override
        public int getClassId() {
            return Serialization.REFUND_PROCESSOR;
        }
    }
}
