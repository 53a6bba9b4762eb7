package io.tollgate.internal.hazelcast;

import com.hazelcast.map.EntryProcessor;
import com.hazelcast.map.IMap;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.CompletionStage;

/**
 * A member's entry calls: the invocation {@code IMap.executeOnKey} and {@code submitToKey} share
 * ({@code executeOnKeyInternal}, on every Hazelcast 5), and its serialized answer read with the
 * member's serialization service. The owner hands the processor its instance before it runs (the
 * entry operation's managed context), here as well as elsewhere.
 */
final class MemberEntryCalls implements EntryCalls, EntryCalls.Decoder {

    private static final MethodType CALL = MethodType.methodType(Object.class, Object.class, Object.class, Object.class);
    private static final MethodType DECODE = MethodType.methodType(Object.class, Object.class, Object.class);

    private final Object proxy;
    private final MethodHandle executeOnKeyInternal;
    private final Object serialization;
    private final MethodHandle toObject;

    private MemberEntryCalls(Object proxy, MethodHandle executeOnKeyInternal, Object serialization, MethodHandle toObject) {
        this.proxy = proxy;
        this.executeOnKeyInternal = executeOnKeyInternal;
        this.serialization = serialization;
        this.toObject = toObject;
    }

    /** @return the member's calls for {@code map}, or {@code null} if it is not a member's map */
    static MemberEntryCalls of(IMap<String, long[]> map) throws ReflectiveOperationException {
        Class<?> type = map.getClass();
        java.lang.reflect.Method nodeEngine;
        try {
            nodeEngine = type.getMethod("getNodeEngine");
        } catch (NoSuchMethodException e) {
            return null;
        }
        ClassLoader loader = type.getClassLoader();
        Object serialization = Class.forName("com.hazelcast.spi.impl.NodeEngine", false, loader)
                .getMethod("getSerializationService").invoke(nodeEngine.invoke(map));
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        MethodHandle toObject = lookup.unreflect(Class.forName("com.hazelcast.internal.serialization.SerializationService", false, loader)
                .getMethod("toObject", Object.class)).asType(DECODE);
        MethodHandle call = lookup.unreflect(type.getMethod("executeOnKeyInternal", Object.class, EntryProcessor.class)).asType(CALL);
        return new MemberEntryCalls(map, call, serialization, toObject);
    }

    @Override
    public <T> EntryAnswer<T> call(String key, OwnerProcessor processor, EntryAnswer<T> answer) {
        try {
            CompletionStage<?> invocation = (CompletionStage<?>) (Object) executeOnKeyInternal.invokeExact(proxy, (Object) key, (Object) processor);
            return answer.handedOver(invocation, this);
        } catch (Throwable e) {
            return answer.failed(e);
        }
    }

    /** Reads an answer with the member's serialization service. */
    @Override
    public long[] decode(Object data) throws Throwable {
        return (long[]) (Object) toObject.invokeExact(serialization, data);
    }
}
