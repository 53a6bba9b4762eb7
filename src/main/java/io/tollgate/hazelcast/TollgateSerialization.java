package io.tollgate.hazelcast;

import com.hazelcast.config.SerializationConfig;
import com.hazelcast.nio.serialization.DataSerializableFactory;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.tollgate.internal.hazelcast.Serialization;

/**
 * Tollgate's Hazelcast serialization factory, for the configuration of members and clients that Tollgate does not
 * configure itself (an external cluster, an application's own instance). With it, Tollgate's entry processors
 * travel by type id, without class names on the wire; without it, they travel as plain {@code DataSerializable}.
 *
 * <pre>{@code
 * hazelcast:
 *   serialization:
 *     data-serializable-factories:
 *       - factory-id: 1953459308   # 0x746F6C6C
 *         class-name: io.tollgate.hazelcast.TollgateSerialization
 * }</pre>
 *
 * <p>Members read every wire version up to {@link #WIRE_VERSION} and agree among themselves on the one they send,
 * so members of two Tollgate versions decide the same keys during a rolling upgrade.
 */
public final class TollgateSerialization implements DataSerializableFactory {

    /** The factory id, {@code 0x746F6C6C} (1953459308, "toll"); never changes. */
    public static final int FACTORY_ID = 0x746F6C6C;
    /** The newest wire version this Tollgate reads and writes. */
    public static final int WIRE_VERSION = 3;

    /**
     * Adds this factory to a member's or client's configuration, as an application that configures its own
     * instance in code does.
     *
     * @return {@code config}
     */
    public static SerializationConfig register(SerializationConfig config) {
        return Serialization.register(config);
    }

    @Override
    public IdentifiedDataSerializable create(int typeId) {
        return Serialization.create(typeId);
    }
}
