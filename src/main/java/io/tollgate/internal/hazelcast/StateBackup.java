package io.tollgate.internal.hazelcast;

import com.hazelcast.map.EntryProcessor;
import com.hazelcast.map.ExtendedMapEntry;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.DataSerializable;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Copies the state the owner decided onto a backup replica, with the same time-to-live. Backups
 * never re-run the decision: their clocks may differ from the owner's. Travels in the wire version
 * of the processor it comes from: the same fields in both, with the version marker from version 1 on.
 */
class StateBackup implements EntryProcessor<String, long[], long[]>, DataSerializable {

    private static final String WHAT = "Tollgate's StateBackup";

    private long[] state;
    private long ttlMillis;
    private int version;

    StateBackup() {
    }

    StateBackup(long[] state, long ttlMillis, int version) {
        this.state = state;
        this.ttlMillis = ttlMillis;
        this.version = version;
    }

    static StateBackup create(long[] state, long ttlMillis, boolean identified, int version) {
        return identified ? new Identified(state, ttlMillis, version) : new StateBackup(state, ttlMillis, version);
    }

    @Override
    public long[] process(Map.Entry<String, long[]> entry) {
        ((ExtendedMapEntry<String, long[]>) entry).setValue(state, ttlMillis, TimeUnit.MILLISECONDS);
        return null;
    }

    @Override
    public EntryProcessor<String, long[], long[]> getBackupProcessor() {
        return null;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        if (version == Serialization.WIRE_V0) {
            out.writeLongArray(state);
            out.writeLong(ttlMillis);
        } else {
            WireFormat.writeVersion(out, version);
            out.writeLong(ttlMillis);
            out.writeLongArray(state);
        }
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        int head = in.readInt();
        version = WireFormat.version(head, WHAT);
        if (version == Serialization.WIRE_V0) {
            state = WireFormat.readLongs(in, head, WireFormat.MAX_STATE, WHAT + ": a state");
            ttlMillis = in.readLong();
        } else {
            ttlMillis = in.readLong();
            state = WireFormat.readLongArray(in, WireFormat.MAX_STATE, WHAT + ": a state");
        }
        WireFormat.state(state, WHAT);
        WireFormat.ttl(ttlMillis, WHAT);
    }

    /** The same backup, read by type id where {@link Serialization} is registered. */
    static final class Identified extends StateBackup implements IdentifiedDataSerializable {

        Identified() {
        }

        Identified(long[] state, long ttlMillis, int version) {
            super(state, ttlMillis, version);
        }

        @Override
        public int getFactoryId() {
            return Serialization.FACTORY_ID;
        }

        @Override
        public int getClassId() {
            return Serialization.STATE_BACKUP;
        }
    }
}
