package io.tollgate.internal.store;

import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * Keeps bucket state and decides atomically: every call reads, decides and writes one bucket as
 * one indivisible step, on the clock of whoever holds the bucket.
 */
public interface BucketStore extends AutoCloseable {

    /**
     * Decides a request of {@code cost} tokens against the bucket at {@code key}.
     *
     * @param key    the store key (see {@link io.tollgate.internal.core.BucketKeys})
     * @param bucket the rule's limits
     * @param cost   tokens to take, {@code 0 <= cost <= bucket.maxCost()}
     * @return the outcome, without state; completes exceptionally if the store fails
     * @throws io.tollgate.internal.core.InvalidDefinitionException for a cost no bucket could grant,
     *         before the store is touched
     */
    CompletionStage<Outcome> acquire(String key, TokenBucket bucket, long cost);

    /**
     * Gives {@code tokens} back to the bucket at {@code key}, each limit capped at its burst: tokens a request was
     * charged and, by its outcome, does not owe. A missing or expired bucket is full: nothing changes. The default
     * takes no refunds (it completes exceptionally): a store that wraps another must pass refunds on.
     *
     * @param tokens tokens to give back, at least 1
     * @return the bucket after the refund, as an allowed outcome; completes exceptionally if the store fails
     */
    default CompletionStage<Outcome> refund(String key, TokenBucket bucket, long tokens) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException(getClass().getName() + " takes no refunds"));
    }

    /**
     * @return whether a {@link #refund} would be sent now: not by a store that takes none, nor by a member while a data
     *         member of an older Tollgate is in its cluster. The default: none.
     */
    default boolean takesRefunds() {
        return false;
    }

    /**
     * Makes the store ready before traffic arrives (a remote store creates its structures and loads
     * its classes on first use, which must not count against the first requests' timeout). Writes
     * nothing. The default does nothing.
     *
     * @param bucket a rule's limits, to exercise the real decision path
     */
    default void warmUp(TokenBucket bucket) throws Exception {
    }

    /**
     * Reads a bucket without deciding, charging or touching anything (not even its idle time). Blocks until
     * the store answers.
     *
     * @throws UnsupportedOperationException from a store that cannot read (the default)
     * @throws RuntimeException if the store fails
     */
    default BucketReading read(String key) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot read buckets");
    }

    /**
     * Resets a bucket: the stored entry is removed, so the bucket is full again, and what every layer in
     * front of a store remembers of the key here ({@link #forget}) goes too; a store shared by several
     * members also has them forget the key ({@link #listenForResets}). Blocks until the store answers.
     *
     * @return whether the store held a bucket at {@code key} and removed it; {@code false} for a key never charged, or
     *         whose bucket was dropped once full again
     * @throws UnsupportedOperationException from a store that cannot reset (the default)
     * @throws RuntimeException if the store fails
     */
    default boolean reset(String key) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot reset buckets");
    }

    /**
     * Drops what this store, or a layer in front of it, remembers of {@code key} on this member alone (a
     * cached denial, tokens reserved ahead): from now on the key's decisions are the owner's. The default
     * remembers nothing.
     */
    default void forget(String key) {
    }

    /**
     * Tells a store shared by several members where to report the keys reset by any of them, so that each
     * member forgets them; a store of this JVM alone ignores it (the default).
     *
     * @param forget what this member must do with a reset key: the {@link #forget} of the whole stack
     */
    default void listenForResets(Consumer<String> forget) {
    }

    /**
     * Forgets what this member worked out locally for the buckets of {@code rule} (cached denials, reserved tokens),
     * which the rule's change makes stale. The buckets themselves stay. The default holds nothing of the kind.
     */
    default void forgetRule(String rule) {
    }

    /**
     * Keeps {@code key}'s stored bucket, if it has one, until {@code limits} would have refilled it: its expiry follows
     * these limits from now on, not those that last wrote it. A denial writes nothing, so without this a bucket drained
     * under faster limits would expire, and come back full, long before stricter limits had refilled it. The default
     * keeps nothing: a store that never expires a bucket.
     *
     * @return when it is done; it may fail (a member that does not know how), changing nothing
     */
    default CompletionStage<Void> retain(String key, TokenBucket limits) {
        return CompletableFuture.completedFuture(null);
    }

    /**
     * {@link #retain} for every stored bucket of {@code rule} but the counters of its bans: the rule's limits changed.
     *
     * @param except store keys whose limits are others (overrides), left as they are
     * @return when every bucket was done
     */
    default CompletionStage<Void> retainRule(String rule, TokenBucket limits, Set<String> except) {
        return CompletableFuture.completedFuture(null);
    }

    /** Releases what the store holds; the default does nothing. */
    @Override
    default void close() {
    }
}
