package io.tollgate.internal.store;

import io.tollgate.internal.core.TokenBucket;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * A layer in front of a store that remembers something of keys on this member (a cached denial, tokens reserved
 * ahead): reads, resets, warm-up, the keeping of buckets and the resets' listener pass through to the store; forgetting a key or a rule drops
 * what this layer holds first, then passes on.
 */
abstract class StoreLayer implements BucketStore {

    private final BucketStore next;

    StoreLayer(BucketStore next) {
        this.next = next;
    }

    /** Drops what this layer holds of {@code key}. */
    abstract void forgetHere(String key);

    /** Drops what this layer holds of the keys of {@code rule}, whose limits changed. */
    abstract void forgetRuleHere(String rule);

    @Override
    public final void forget(String key) {
        forgetHere(key);
        next.forget(key);
    }

    @Override
    public final void forgetRule(String rule) {
        forgetRuleHere(rule);
        next.forgetRule(rule);
    }

    /** Drops what this member holds of the key here first, then resets it in the store. */
    @Override
    public final boolean reset(String key) {
        forgetHere(key);
        return next.reset(key); // a layer below forgets the key in its own reset
    }

    @Override
    public final BucketReading read(String key) {
        return next.read(key);
    }

    @Override
    public final void listenForResets(Consumer<String> forget) {
        next.listenForResets(forget);
    }

    @Override
    public final void warmUp(TokenBucket bucket) throws Exception {
        next.warmUp(bucket);
    }

    @Override
    public final CompletionStage<Void> retain(String key, TokenBucket limits) {
        return next.retain(key, limits);
    }

    @Override
    public final CompletionStage<Void> retainRule(String rule, TokenBucket limits, Set<String> except) {
        return next.retainRule(rule, limits, except);
    }
}
