package io.tollgate.internal.limiter;

import io.tollgate.Decision;
import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.config.TollgateConfig;
import io.tollgate.internal.store.StoreCluster;
import java.time.Instant;
import java.util.Collection;

/**
 * Told of every decision a {@link Limiter} makes, for metrics and the application's events. Called on the
 * deciding thread: keep it cheap. The key it is given is the client's: it must never leave Tollgate unhashed.
 */
public interface DecisionObserver {

    /** Observes nothing. */
    DecisionObserver NONE = new DecisionObserver() {
        @Override
        public void decided(RuleConfig rule, String key, Decision decision, long nanos) {
        }

        @Override
        public void storeFailed(RuleConfig rule, String key, boolean timedOut, Decision decision) {
        }
    };

    /**
     * @param key      the bucket key within the rule
     * @param decision what was decided, by the store or, when it failed, by the rule's policy
     * @param nanos    how long the decision took the caller
     */
    void decided(RuleConfig rule, String key, Decision decision, long nanos);

    /**
     * The store did not answer for {@code rule}: it timed out, or failed. Told before {@link #decided}.
     *
     * @param decision what the rule's policy answered instead
     */
    void storeFailed(RuleConfig rule, String key, boolean timedOut, Decision decision);

    /**
     * A denial of {@code rule} for {@code key} started a ban (on this member; told once per ban, after that denial's
     * {@link #decided}). The default does nothing.
     *
     * @param until when the ban ends
     */
    default void banned(RuleConfig rule, String key, Instant until) {
    }

    /**
     * A denial of {@code rule} for {@code key} was not counted towards a ban, nor started one, because this member held
     * as many bans as it keeps ({@code tollgate.bans.max-entries}). Told after that denial's {@link #decided}. The
     * default does nothing.
     */
    default void banSkipped(RuleConfig rule, String key) {
    }

    /**
     * Tokens were given back to {@code rule}'s bucket for {@code key} ({@code charge-on}, {@code refund-on}, or the
     * application's own refund), or the store did not take them ({@code failed}: they stay charged). The default
     * observes nothing.
     */
    default void refunded(RuleConfig rule, String key, long tokens, boolean failed) {
    }

    /**
     * An operator reset {@code rule}'s bucket for {@code key} on this member; {@code found}: the store held one. The
     * default observes nothing.
     */
    default void reset(RuleConfig rule, String key, boolean found) {
    }

    /** An operator lifted the ban of {@code key} by {@code rule} on this member. The default observes nothing. */
    default void banLifted(RuleConfig rule, String key) {
    }

    /** Lets go of what the observer registered elsewhere (a gauge's callback), as the application stops. The default holds nothing. */
    default void close() {
    }

    /** @return an observer that tells {@code first}, then {@code second} */
    static DecisionObserver both(DecisionObserver first, DecisionObserver second) {
        if (first == NONE) {
            return second;
        }
        if (second == NONE) {
            return first;
        }
        return new DecisionObserver() {
            @Override
            public void decided(RuleConfig rule, String key, Decision decision, long nanos) {
                first.decided(rule, key, decision, nanos);
                second.decided(rule, key, decision, nanos);
            }

            @Override
            public void storeFailed(RuleConfig rule, String key, boolean timedOut, Decision decision) {
                first.storeFailed(rule, key, timedOut, decision);
                second.storeFailed(rule, key, timedOut, decision);
            }

            @Override
            public void banned(RuleConfig rule, String key, Instant until) {
                first.banned(rule, key, until);
                second.banned(rule, key, until);
            }

            @Override
            public void banSkipped(RuleConfig rule, String key) {
                first.banSkipped(rule, key);
                second.banSkipped(rule, key);
            }

            @Override
            public void refunded(RuleConfig rule, String key, long tokens, boolean failed) {
                first.refunded(rule, key, tokens, failed);
                second.refunded(rule, key, tokens, failed);
            }

            @Override
            public void reset(RuleConfig rule, String key, boolean found) {
                first.reset(rule, key, found);
                second.reset(rule, key, found);
            }

            @Override
            public void banLifted(RuleConfig rule, String key) {
                first.banLifted(rule, key);
                second.banLifted(rule, key);
            }

            @Override
            public void close() {
                try {
                    first.close();
                } finally {
                    second.close();
                }
            }
        };
    }

    /** Makes the observer of a configuration's rules. */
    interface Factory {
        /** @param cluster the store's cluster, whose members a gauge counts */
        DecisionObserver create(TollgateConfig config, StoreCluster cluster);
    }
}
