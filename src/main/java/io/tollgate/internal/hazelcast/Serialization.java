package io.tollgate.internal.hazelcast;

import com.hazelcast.config.SerializationConfig;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;

/**
 * Tollgate's Hazelcast serialization: the factory id, the type ids and the wire versions of the
 * objects that cross the wire, all in this one place. Configurations name the factory by its public
 * class, {@link io.tollgate.hazelcast.TollgateSerialization}, or by the name Tollgate 0.1 gave it,
 * {@link TollgateSerialization}; both create the same objects. Bucket state and outcomes travel as plain
 * {@code long[]}, which every member reads without Tollgate's classes.
 *
 * <p>Members that have this factory registered read the processors by id (no class name on the
 * wire, no reflection). Where the factory cannot be registered, as on a server's own Hazelcast
 * instance started before the application, the plain {@code DataSerializable} form is used; both
 * forms carry the same fields.
 *
 * <p><b>Wire versions.</b> Version 0 (Tollgate up to 0.1) has no marker: each object starts with
 * the {@code int} length of a {@code long[]} ({@code >= -1}). From version 1 on, each object starts
 * with the {@code int} marker {@code -1 - version} ({@code -2} for version 1), which no version-0
 * stream starts with, followed by that version's fields ({@link WireFormat}). Members read every
 * version up to {@link #WIRE_VERSION} and reject a newer one with an {@code IOException}. Senders
 * send the version every data member reads ({@link WireVersions}). Never change a version's
 * layout once released; add a version instead.
 */
public final class Serialization {

    /** The factory id, {@code 0x746F6C6C} ("toll"). Documented; never change it. */
    static final int FACTORY_ID = io.tollgate.hazelcast.TollgateSerialization.FACTORY_ID;
    /** {@link BucketProcessor}: one decision. */
    static final int BUCKET_PROCESSOR = 1;
    /** {@link StateBackup}: the state a decision wrote, for the backup replicas. */
    static final int STATE_BACKUP = 2;
    /** {@link BatchProcessor}: several coalesced decisions on one bucket. */
    static final int BATCH_PROCESSOR = 3;
    /** {@link RefundProcessor}: tokens given back to a bucket (from wire version 2 on). */
    static final int REFUND_PROCESSOR = 4;
    /** {@link RetainProcessor}: a bucket's time-to-live made to follow the limits now in force (from wire version 3 on). */
    static final int RETAIN_PROCESSOR = 5;
    /** One more than the highest type id. */
    static final int TYPE_COUNT = 6;

    /** Wire version 0: no marker; a batch carries one deadline, that of its oldest request. */
    static final int WIRE_V0 = 0;
    /** Wire version 1: the version marker first; each request of a batch carries its own deadline. */
    static final int WIRE_V1 = 1;
    /** Wire version 2: version 1's layouts, and refunds ({@link RefundProcessor}), which no earlier member reads. */
    static final int WIRE_V2 = 2;
    /** Wire version 3: version 2's layouts, and the keeping of buckets ({@link RetainProcessor}), which no earlier member reads. */
    static final int WIRE_V3 = 3;
    /** The highest wire version this code reads and writes. */
    static final int WIRE_VERSION = io.tollgate.hazelcast.TollgateSerialization.WIRE_VERSION;

    private Serialization() {
    }

    /** Adds the factory to a member's or client's serialization configuration. */
    public static SerializationConfig register(SerializationConfig config) {
        return config.addDataSerializableFactory(FACTORY_ID, new io.tollgate.hazelcast.TollgateSerialization());
    }

    /** @return whether {@code config} names the factory, by instance or by either of its class names */
    public static boolean isRegistered(SerializationConfig config) {
        String named = config.getDataSerializableFactoryClasses().get(FACTORY_ID);
        return registersThisCode(config) || io.tollgate.hazelcast.TollgateSerialization.class.getName().equals(named)
                || TollgateSerialization.class.getName().equals(named);
    }

    /** @return whether {@code config} holds an instance of this code's factory (so its members read what this code writes) */
    static boolean registersThisCode(SerializationConfig config) {
        Object factory = config.getDataSerializableFactories().get(FACTORY_ID);
        return factory instanceof io.tollgate.hazelcast.TollgateSerialization || factory instanceof TollgateSerialization;
    }

    /** @return a new object of type {@code typeId} to read from the wire, or {@code null} for an unknown type */
    public static IdentifiedDataSerializable create(int typeId) {
        switch (typeId) {
            case BUCKET_PROCESSOR:
                return new BucketProcessor.Identified();
            case STATE_BACKUP:
                return new StateBackup.Identified();
            case BATCH_PROCESSOR:
                return new BatchProcessor.Identified();
            case REFUND_PROCESSOR:
                return new RefundProcessor.Identified();
            case RETAIN_PROCESSOR:
                return new RetainProcessor.Identified();
            default:
                return null;
        }
    }
}
