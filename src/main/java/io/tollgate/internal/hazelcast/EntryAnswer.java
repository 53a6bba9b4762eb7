package io.tollgate.internal.hazelcast;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * What the caller of an {@link EntryCalls#call entry call} gets: a plain future, completed on the thread that receives
 * the owner's answer with what the reader makes of it, decoded. It is also the invocation's callback, so a call makes no
 * other object to hand its answer over; a subclass can be {@link #told} of the answer before the future completes.
 */
class EntryAnswer<T> extends CompletableFuture<T> implements BiConsumer<Object, Throwable> {

    private final Function<long[], T> reader;
    private EntryCalls.Decoder decoder;

    /** @param reader what the caller makes of the processor's answer; runs on the thread that received it, may throw */
    EntryAnswer(Function<long[], T> reader) {
        this.reader = reader;
    }

    /** @return this, completed from {@code invocation} through {@code decoder} */
    final EntryAnswer<T> handedOver(CompletionStage<?> invocation, EntryCalls.Decoder decoder) {
        this.decoder = decoder;
        invocation.whenCompleteAsync(this, EntryCalls.IN_PLACE);
        return this;
    }

    /** @return this, failed with {@code failure}: the call could not be made */
    final EntryAnswer<T> failed(Throwable failure) {
        try {
            told(null, failure);
        } finally {
            completeExceptionally(failure);
        }
        return this;
    }

    @Override
    public final void accept(Object answer, Throwable failure) {
        if (failure != null) {
            failed(failure);
            return;
        }
        T value;
        try {
            value = reader.apply(decoder.decode(answer));
        } catch (Throwable e) {
            failed(e);
            return;
        }
        try {
            told(value, null);
        } finally {
            complete(value);
        }
    }

    /**
     * Told of the answer, or of the failure, on the thread that has it, before this future completes (which it does even
     * if this throws); by default nothing.
     *
     * @param value   what the reader made of the answer, or {@code null} if the call failed
     * @param failure why it failed, or {@code null}
     */
    void told(T value, Throwable failure) {
    }
}
