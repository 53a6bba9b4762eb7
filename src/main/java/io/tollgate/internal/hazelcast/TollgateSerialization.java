package io.tollgate.internal.hazelcast;

import com.hazelcast.nio.serialization.DataSerializableFactory;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;

/**
 * The name Tollgate 0.1 gave its serialization factory, still accepted in Hazelcast configurations so that they keep
 * working; it creates the same objects as {@link io.tollgate.hazelcast.TollgateSerialization}.
 *
 * @deprecated name {@link io.tollgate.hazelcast.TollgateSerialization} in configurations instead
 */
@Deprecated(since = "0.2")
public final class TollgateSerialization implements DataSerializableFactory {

    @Override
    public IdentifiedDataSerializable create(int typeId) {
        return Serialization.create(typeId);
    }
}
