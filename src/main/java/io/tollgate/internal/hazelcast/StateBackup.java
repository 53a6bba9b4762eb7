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
 * never re-run the decision: their clocks may differ from the owner's.
 */
class StateBackup implements EntryProcessor<String, long[], long[]>, DataSerializable {

    private long[] state;
    private long ttlMillis;

    StateBackup() {
    }

    StateBackup(long[] state, long ttlMillis) {
        this.state = state;
        this.ttlMillis = ttlMillis;
    }

    static StateBackup create(long[] state, long ttlMillis, boolean identified) {
        return identified ? new Identified(state, ttlMillis) : new StateBackup(state, ttlMillis);
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
        out.writeLongArray(state);
        out.writeLong(ttlMillis);
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        state = in.readLongArray();
        ttlMillis = in.readLong();
    }

    /** The same backup, read by type id where {@link TollgateSerialization} is registered. */
    static final class Identified extends StateBackup implements IdentifiedDataSerializable {

        Identified() {
        }

        Identified(long[] state, long ttlMillis) {
            super(state, ttlMillis);
        }

        @Override
        public int getFactoryId() {
            return TollgateSerialization.FACTORY_ID;
        }

        @Override
        public int getClassId() {
            return TollgateSerialization.STATE_BACKUP;
        }
    }
}
