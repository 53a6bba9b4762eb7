package io.tollgate.internal.store;

import java.util.function.Consumer;

/**
 * Where {@link Bans} tell the other members of a cluster of the bans this one started and lifted. The other
 * members' copies are updated by the sharing itself, through {@link Bans#copied} and {@link Bans#dropped}.
 */
public interface BanSharing extends AutoCloseable {

    /**
     * @param storeKey       the banned bucket's store key
     * @param untilMicros    when the ban ends, on this member's clock (µs since the epoch)
     * @param durationMicros how long it lasts
     */
    void started(String storeKey, long untilMicros, long durationMicros);

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
            public void started(String storeKey, long untilMicros, long durationMicros) {
            }

            @Override
            public void lifted(String storeKey, String counterKey) {
                forgetCounter.accept(counterKey);
            }
        };
    }
}
