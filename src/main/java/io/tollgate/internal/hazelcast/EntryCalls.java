package io.tollgate.internal.hazelcast;

import com.hazelcast.map.IMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Sends an entry processor to the owner of a key and hands its answer over on the thread that
 * received it.
 *
 * <p>{@code IMap.submitToKey} wraps its invocation in a future that, from Hazelcast 5.6, passes every
 * answer through Hazelcast's default executor; where the common fork-join pool has a parallelism of 1
 * (one or two CPUs, the common container), that executor starts a new thread per answer, a tenfold
 * loss. So a member calls the map's own invocation ({@link MemberEntryCalls}) and a client sends the
 * map's submit-to-key message itself ({@link ClientEntryCalls}): the same operations, without the
 * wrapper, and without touching any setting an application shares. A Hazelcast on which these cannot
 * be found gets {@code submitToKey}.
 */
interface EntryCalls {

    Logger LOG = Logger.getLogger(EntryCalls.class.getName());
    Executor IN_PLACE = Runnable::run;

    /**
     * @param reader what the caller makes of the processor's answer; runs on the thread that received it
     * @return what {@code reader} made of the answer, or a failure if the call could not be made, failed, or
     *         {@code reader} threw
     */
    default <T> CompletableFuture<T> call(String key, OwnerProcessor processor, Function<long[], T> reader) {
        return call(key, processor, new EntryAnswer<>(reader));
    }

    /** @return {@code answer}, completed as its reader makes of the processor's answer, or failed */
    <T> EntryAnswer<T> call(String key, OwnerProcessor processor, EntryAnswer<T> answer);

    /** @return how to call the entries of {@code map}, a member's or a client's */
    static EntryCalls of(IMap<String, long[]> map) {
        try {
            EntryCalls direct = MemberEntryCalls.of(map);
            return direct != null ? direct : ClientEntryCalls.of(map);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            Level level = ForkJoinPool.getCommonPoolParallelism() > 1 ? Level.FINE : Level.WARNING;
            LOG.log(level, "Tollgate calls this Hazelcast's entry processors through IMap.submitToKey"
                    + (level == Level.WARNING ? ", which on Hazelcast 5.6 and later with one or two CPUs starts a thread per"
                    + " decision: start the JVM with -Djava.util.concurrent.ForkJoinPool.common.parallelism=2" : ""), e);
            return submitToKey(map);
        }
    }

    /** @return the public way: {@code submitToKey}, its answer taken on the thread that completes it */
    static EntryCalls submitToKey(IMap<String, long[]> map) {
        return new EntryCalls() {
            @Override
            public <T> EntryAnswer<T> call(String key, OwnerProcessor processor, EntryAnswer<T> answer) {
                try {
                    return answer.handedOver(map.submitToKey(key, processor), AS_IS);
                } catch (RuntimeException e) {
                    return answer.failed(e);
                }
            }
        };
    }

    /** Decodes a serialized answer; may throw. */
    @FunctionalInterface
    interface Decoder {
        long[] decode(Object answer) throws Throwable;
    }

    /** An answer that needs no decoding. */
    Decoder AS_IS = answer -> (long[]) answer;
}
