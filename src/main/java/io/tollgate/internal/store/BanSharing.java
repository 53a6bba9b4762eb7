package io.tollgate.internal.store;

import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * Where {@link Bans} tell the other members of a cluster of the bans this one started and lifted. The other
 * members' copies are updated by the sharing itself, through {@link Bans#copied} and {@link Bans#dropped}.
 */
public interface BanSharing extends AutoCloseable {

    /** The answer of {@link #start} for a ban that is this member's: in this JVM alone, the only one there is. */
    CompletionStage<OptionalLong> MINE = CompletableFuture.completedStage(OptionalLong.empty());

    /**
     * Shares a ban this member starts, unless the cluster holds a current one of the key already: of several members
     * that start a ban of one key at once, one's is kept and the others adopt it.
     *
     * @param storeKey       the banned bucket's store key
     * @param untilMicros    when the ban ends, on this member's clock (µs since the epoch)
     * @param durationMicros how long it lasts
     * @param nowMicros      now on this member's clock, by which a ban the cluster holds is current or over
     * @return empty if this member's ban is the key's (or could not be shared: it then holds on this member only);
     *         else the end of the current ban the cluster holds, which this member adopts
     */
    CompletionStage<OptionalLong> start(String storeKey, long untilMicros, long durationMicros, long nowMicros);

    /**
     * Ends a ban everywhere and forgets its key's denials.
     *
     * @param counterKey the store key of the bucket that counted them
     */
    void lifted(String storeKey, String counterKey);

    @Override
    default void close() {
    }

    /**
     * @param forgetCounter drops the bucket of a key's counted denials from the store that holds it
     * @return the sharing of a store in this JVM only: nothing to tell anyone
     */
    static BanSharing local(Consumer<String> forgetCounter) {
        return new BanSharing() {
            @Override
            public CompletionStage<OptionalLong> start(String storeKey, long untilMicros, long durationMicros, long nowMicros) {
                return MINE;
            }

            @Override
            public void lifted(String storeKey, String counterKey) {
                forgetCounter.accept(counterKey);
            }
        };
    }
}
