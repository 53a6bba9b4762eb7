package io.tollgate.internal.hazelcast;

import com.hazelcast.map.IMap;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.util.concurrent.CompletionStage;

/**
 * A client's entry calls: the submit-to-key message {@code IMap.submitToKey} sends, to the partition
 * owner {@code submitToKey} picks, through the client's own invocation (the same classes and
 * signatures on every Hazelcast 5 client, found once), and the answer read with the client's
 * serialization service.
 */
final class ClientEntryCalls implements EntryCalls, EntryCalls.Decoder {

    private static final String CODEC = "com.hazelcast.client.impl.protocol.codec.MapSubmitToKeyCodec";
    private static final String MESSAGE = "com.hazelcast.client.impl.protocol.ClientMessage";
    private static final String INVOCATION = "com.hazelcast.client.impl.spi.impl.ClientInvocation";
    private static final String DATA = "com.hazelcast.internal.serialization.Data";
    private static final String SERIALIZATION = "com.hazelcast.internal.serialization.SerializationService";
    private static final String PARTITIONS = "com.hazelcast.client.impl.spi.ClientPartitionService";
    private static final String THREADS = "com.hazelcast.internal.util.ThreadUtil";

    private final String mapName;
    private final Object client;
    private final Object serialization;
    private final Object partitions;
    /** (serialization, object) → Data */
    private final MethodHandle toData;
    /** (serialization, data) → object */
    private final MethodHandle toObject;
    /** (partitions, data) → partition id */
    private final MethodHandle partitionId;
    /** (map name, processor data, key data, thread id) → request */
    private final MethodHandle encodeRequest;
    /** (response) → answer data */
    private final MethodHandle decodeResponse;
    /** (client, request, map name, partition id) → invocation */
    private final MethodHandle newInvocation;
    /** (invocation) → its future */
    private final MethodHandle invoke;
    /** () → the caller's thread id, as the client's proxies send it */
    private final MethodHandle threadId;

    private ClientEntryCalls(IMap<String, long[]> map, Object context) throws ReflectiveOperationException {
        Class<?> contextType = context.getClass();
        ClassLoader loader = contextType.getClassLoader();
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        Class<?> serializationType = Class.forName(SERIALIZATION, false, loader);
        Class<?> partitionsType = Class.forName(PARTITIONS, false, loader);
        Class<?> dataType = Class.forName(DATA, false, loader);
        Class<?> messageType = Class.forName(MESSAGE, false, loader);
        Class<?> codec = Class.forName(CODEC, false, loader);
        Class<?> invocationType = Class.forName(INVOCATION, false, loader);
        this.mapName = map.getName();
        this.client = contextType.getMethod("getHazelcastInstance").invoke(context);
        this.serialization = contextType.getMethod("getSerializationService").invoke(context);
        this.partitions = contextType.getMethod("getPartitionService").invoke(context);
        this.toData = lookup.unreflect(serializationType.getMethod("toData", Object.class))
                .asType(MethodType.methodType(Object.class, Object.class, Object.class));
        this.toObject = lookup.unreflect(serializationType.getMethod("toObject", Object.class))
                .asType(MethodType.methodType(Object.class, Object.class, Object.class));
        this.partitionId = lookup.unreflect(partitionsType.getMethod("getPartitionId", dataType))
                .asType(MethodType.methodType(int.class, Object.class, Object.class));
        this.encodeRequest = lookup.unreflect(codec.getMethod("encodeRequest", String.class, dataType, dataType, long.class))
                .asType(MethodType.methodType(Object.class, String.class, Object.class, Object.class, long.class));
        this.decodeResponse = lookup.unreflect(codec.getMethod("decodeResponse", messageType))
                .asType(MethodType.methodType(Object.class, Object.class));
        this.newInvocation = lookup.unreflectConstructor(invocationConstructor(invocationType, messageType, client))
                .asType(MethodType.methodType(Object.class, Object.class, Object.class, Object.class, int.class));
        this.invoke = lookup.unreflect(invocationType.getMethod("invoke"))
                .asType(MethodType.methodType(Object.class, Object.class));
        this.threadId = lookup.unreflect(Class.forName(THREADS, false, loader).getMethod("getThreadId"))
                .asType(MethodType.methodType(long.class));
    }

    /** @return the client's calls for {@code map}, or {@code null} if it is not a client's map */
    static ClientEntryCalls of(IMap<String, long[]> map) throws ReflectiveOperationException {
        java.lang.reflect.Method context;
        try {
            context = map.getClass().getMethod("getContext");
        } catch (NoSuchMethodException e) {
            return null;
        }
        return new ClientEntryCalls(map, context.invoke(map));
    }

    /** The invocation's (client, message, object name, partition id) constructor; its client type differs between versions. */
    private static Constructor<?> invocationConstructor(Class<?> invocationType, Class<?> messageType, Object client)
            throws NoSuchMethodException {
        for (Constructor<?> constructor : invocationType.getConstructors()) {
            Class<?>[] parameters = constructor.getParameterTypes();
            if (parameters.length == 4 && parameters[0].isInstance(client) && parameters[1] == messageType
                    && parameters[2] == Object.class && parameters[3] == int.class) {
                return constructor;
            }
        }
        throw new NoSuchMethodException(invocationType.getName() + "(client, message, Object, int)");
    }

    @Override
    public <T> EntryAnswer<T> call(String key, OwnerProcessor processor, EntryAnswer<T> answer) {
        try {
            Object keyData = (Object) toData.invokeExact(serialization, (Object) key);
            Object processorData = (Object) toData.invokeExact(serialization, (Object) processor);
            Object request = (Object) encodeRequest.invokeExact(mapName, processorData, keyData, (long) threadId.invokeExact());
            int partition = (int) partitionId.invokeExact(partitions, keyData);
            Object invocation = (Object) newInvocation.invokeExact(client, request, (Object) mapName, partition);
            CompletionStage<?> future = (CompletionStage<?>) (Object) invoke.invokeExact(invocation);
            return answer.handedOver(future, this);
        } catch (Throwable e) {
            return answer.failed(e);
        }
    }

    /** Reads the response message's answer with the client's serialization service. */
    @Override
    public long[] decode(Object response) throws Throwable {
        return (long[]) (Object) toObject.invokeExact(serialization, (Object) decodeResponse.invokeExact(response));
    }
}
