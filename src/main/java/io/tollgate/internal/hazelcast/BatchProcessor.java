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
 *
 * <p>In wire version 1 each request carries its caller's own deadline: the owner skips, uncharged,
 * exactly the requests whose deadline has passed (their five longs say so, {@link Outcome#expired()})
 * and decides the others. In version 0 the batch carries one deadline, its oldest request's, and is
 * answered {@code {-1}} as a whole once that has passed.
 */
class BatchProcessor extends OwnerProcessor {

    private static final String WHAT = "Tollgate's BatchProcessor";

    private long[] costs;
    /** Per request (version 1), or one for the whole batch (version 0); cluster time in ms, 0 for none. */
    private long[] deadlines;

    BatchProcessor() {
    }

    BatchProcessor(TokenBucket bucket, long[] costs, long[] deadlines, int version) {
        super(bucket, version);
        this.costs = costs;
        this.deadlines = version == Serialization.WIRE_V0 ? new long[] {earliest(deadlines)} : deadlines;
    }

    /**
     * @param deadlines per request, the cluster time (ms) after which it must not be applied, 0 for none;
     *                  in version 0 the batch carries the earliest of them
     */
    static BatchProcessor create(TokenBucket bucket, long[] costs, long[] deadlines, boolean identified, int version) {
        return identified ? new Identified(bucket, costs, deadlines, version) : new BatchProcessor(bucket, costs, deadlines, version);
    }

    @Override
    public long[] process(Map.Entry<String, long[]> entry) {
        if (version() == Serialization.WIRE_V0) {
            if (passed(deadlines[0])) {
                return OutcomeWire.tooLate();
            }
            Outcome[] outcomes = new Outcome[costs.length];
            decide(entry, costs, outcomes);
            return OutcomeWire.of(outcomes);
        }
        long clusterNow = earliest(deadlines) == 0 ? 0 : clusterNow(); // one instant for the whole batch
        boolean[] late = new boolean[costs.length];
        int live = 0;
        for (int i = 0; i < costs.length; i++) {
            late[i] = passed(deadlines[i], clusterNow);
            live += late[i] ? 0 : 1;
        }
        long[] liveCosts = new long[live];
        for (int i = 0, j = 0; i < costs.length; i++) {
            if (!late[i]) {
                liveCosts[j++] = costs[i];
            }
        }
        Outcome[] decided = new Outcome[live];
        if (live > 0) {
            decide(entry, liveCosts, decided);
        }
        Outcome[] outcomes = new Outcome[costs.length];
        for (int i = 0, j = 0; i < costs.length; i++) {
            outcomes[i] = late[i] ? Outcome.expired() : decided[j++];
        }
        return OutcomeWire.of(outcomes);
    }

    private void decide(Map.Entry<String, long[]> entry, long[] costs, Outcome[] outcomes) {
        long[] state = bucket().tryConsumeAll(storedState(entry), costs, now(), outcomes);
        if (state != null) {
            store(entry, state, outcomes[outcomes.length - 1].fullAfterMicros());
        }
    }

    /** @return the earliest deadline, or 0 if none is set */
    private static long earliest(long[] deadlines) {
        long earliest = 0;
        for (long deadline : deadlines) {
            if (deadline != 0 && (earliest == 0 || deadline < earliest)) {
                earliest = deadline;
            }
        }
        return earliest;
    }

    /** @return the latest deadline, or 0 if some request has none */
    private static long latest(long[] deadlines) {
        long latest = 0;
        for (long deadline : deadlines) {
            if (deadline == 0) {
                return 0;
            }
            latest = Math.max(latest, deadline);
        }
        return latest;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        if (version() == Serialization.WIRE_V0) {
            out.writeLongArray(bucket().spec());
            out.writeLong(deadlines[0]);
            out.writeLongArray(costs);
            return;
        }
        WireFormat.writeVersion(out, version());
        out.writeLong(latest(deadlines)); // where a version-0 reader looks for the deadline: see WireFormat
        out.writeLongArray(bucket().spec());
        out.writeInt(costs.length);
        for (int i = 0; i < costs.length; i++) {
            out.writeLong(costs[i]);
            out.writeLong(deadlines[i]);
        }
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        int head = in.readInt();
        int version = WireFormat.version(head, WHAT);
        TokenBucket bucket;
        if (version == Serialization.WIRE_V0) {
            bucket = WireFormat.bucket(WireFormat.readLongs(in, head, WireFormat.MAX_SPEC, WHAT + ": a spec"), WHAT);
            deadlines = new long[] {WireFormat.deadline(in.readLong(), WHAT)};
            costs = WireFormat.readLongArray(in, WireFormat.MAX_BATCH, WHAT + ": a batch");
        } else {
            WireFormat.deadline(in.readLong(), WHAT);
            bucket = WireFormat.bucket(WireFormat.readLongArray(in, WireFormat.MAX_SPEC, WHAT + ": a spec"), WHAT);
            int n = in.readInt();
            if (n < 1 || n > WireFormat.MAX_BATCH) {
                throw new IOException(WHAT + ": a batch of " + n + " requests, expected 1 to " + WireFormat.MAX_BATCH);
            }
            costs = new long[n];
            deadlines = new long[n];
            for (int i = 0; i < n; i++) {
                costs[i] = in.readLong();
                deadlines[i] = WireFormat.deadline(in.readLong(), WHAT);
            }
        }
        for (long cost : costs) {
            WireFormat.cost(bucket, cost, WHAT);
        }
        read(bucket, version);
    }

    /** The same processor, read by type id where {@link Serialization} is registered. */
    static final class Identified extends BatchProcessor implements IdentifiedDataSerializable {

        Identified() {
        }

        Identified(TokenBucket bucket, long[] costs, long[] deadlines, int version) {
            super(bucket, costs, deadlines, version);
        }

        @Override
        public int getFactoryId() {
            return Serialization.FACTORY_ID;
        }

        @Override
        public int getClassId() {
            return Serialization.BATCH_PROCESSOR;
        }
    }
}
