package io.tollgate.internal.limiter;

import io.tollgate.Decision;
import io.tollgate.internal.config.RuleConfig;
import java.time.Instant;

/**
 * The observer of a Tollgate that starts before the application's observers can be made: it passes everything to
 * the observer {@link #set} gives it, and observes nothing until then. Quarkus sets up its REST resources, which
 * starts Tollgate, before it makes its OpenTelemetry.
 */
public final class LateObserver implements DecisionObserver {

    private volatile DecisionObserver observer = DecisionObserver.NONE;

    /** Observes with {@code observer} from now on. */
    public void set(DecisionObserver observer) {
        this.observer = observer;
    }

    @Override
    public void decided(RuleConfig rule, String key, Decision decision, long nanos) {
        observer.decided(rule, key, decision, nanos);
    }

    @Override
    public void storeFailed(RuleConfig rule, String key, boolean timedOut, Decision decision) {
        observer.storeFailed(rule, key, timedOut, decision);
    }

    @Override
    public void banned(RuleConfig rule, String key, Instant until) {
        observer.banned(rule, key, until);
    }

    @Override
    public void banSkipped(RuleConfig rule, String key) {
        observer.banSkipped(rule, key);
    }

    @Override
    public void refunded(RuleConfig rule, String key, long tokens, boolean failed) {
        observer.refunded(rule, key, tokens, failed);
    }

    @Override
    public void reset(RuleConfig rule, String key, boolean found) {
        observer.reset(rule, key, found);
    }

    @Override
    public void banLifted(RuleConfig rule, String key) {
        observer.banLifted(rule, key);
    }

    @Override
    public void close() {
        observer.close();
    }
}
