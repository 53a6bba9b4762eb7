package io.tollgate.internal.limiter;

import io.tollgate.Decision;
import io.tollgate.internal.config.RuleConfig;
import java.util.Collection;

/** Told of every decision a {@link Limiter} makes, for metrics. Called on the deciding thread: keep it cheap. */
public interface DecisionObserver {

    /** Observes nothing. */
    DecisionObserver NONE = new DecisionObserver() {
        @Override
        public void decided(RuleConfig rule, Decision decision, long nanos) {
        }

        @Override
        public void storeFailed(RuleConfig rule, boolean timedOut) {
        }
    };

    /**
     * @param decision what was decided, by the store or, when it failed, by the rule's policy
     * @param nanos    how long the decision took the caller
     */
    void decided(RuleConfig rule, Decision decision, long nanos);

    /** The store did not answer for {@code rule}: it timed out, or failed. */
    void storeFailed(RuleConfig rule, boolean timedOut);

    /** Makes the observer of a set of rules. */
    interface Factory {
        DecisionObserver create(Collection<RuleConfig> rules);
    }
}
