package io.tollgate.internal.hazelcast;

import com.hazelcast.config.SerializationConfig;
import com.hazelcast.nio.serialization.DataSerializableFactory;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;

/**
 * Tollgate's Hazelcast serialization: fixed type ids for the two objects that cross the wire.
 * Bucket state and outcomes travel as plain {@code long[]}, which every member reads without
 * Tollgate's classes.
 *
 * <p>Members that have this factory registered read the processors by id (no class name on the
 * wire, no reflection). Where the factory cannot be registered, as on a server's own Hazelcast
 * instance started before the application, the plain {@code DataSerializable} form is used.
 */
public final class TollgateSerialization implements DataSerializableFactory {

    /** The factory id, {@code 0x746F6C6C} ("toll"). Documented; never change it. */
    public static final int FACTORY_ID = 0x746F6C6C;
    static final int BUCKET_PROCESSOR = 1;
    static final int STATE_BACKUP = 2;
    static final int BATCH_PROCESSOR = 3;

    /** Adds the factory to a member's or client's serialization configuration. */
    public static SerializationConfig register(SerializationConfig config) {
        return config.addDataSerializableFactory(FACTORY_ID, new TollgateSerialization());
    }

    /** @return whether {@code config} names this factory, by instance or by class */
    public static boolean isRegistered(SerializationConfig config) {
        return config.getDataSerializableFactories().get(FACTORY_ID) instanceof TollgateSerialization
                || TollgateSerialization.class.getName().equals(config.getDataSerializableFactoryClasses().get(FACTORY_ID));
    }

    @Override
    public IdentifiedDataSerializable create(int typeId) {
        switch (typeId) {
            case BUCKET_PROCESSOR:
                return new BucketProcessor.Identified();
            case STATE_BACKUP:
                return new StateBackup.Identified();
            case BATCH_PROCESSOR:
                return new BatchProcessor.Identified();
            default:
                return null;
        }
    }
}
