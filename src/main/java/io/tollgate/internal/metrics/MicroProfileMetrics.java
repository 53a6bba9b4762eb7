package io.tollgate.internal.metrics;

import io.tollgate.Decision;
import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.limiter.DecisionObserver;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.MetricUnits;
import org.eclipse.microprofile.metrics.Tag;
import org.eclipse.microprofile.metrics.Timer;

/**
 * Tollgate's metrics in the application's MicroProfile Metrics registry, tagged with the rule:
 * {@code tollgate.decisions} by {@code outcome} (allowed, denied, shadow-denied),
 * {@code tollgate.store.failures} by {@code cause} (timeout, error), {@code tollgate.refunds} by {@code result}
 * (refunded, failed) and the timer
 * {@code tollgate.decision.time}. Every metric exists from deployment on, so a rule that never
 * denied shows 0. Only loaded where the server offers MicroProfile Metrics.
 */
public final class MicroProfileMetrics implements DecisionObserver {

    static final Metadata DECISIONS = Metadata.builder().withName("tollgate.decisions")
            .withDescription("Rate-limit decisions, by rule and outcome (allowed, denied, shadow-denied)").build();
    static final Metadata STORE_FAILURES = Metadata.builder().withName("tollgate.store.failures")
            .withDescription("Decisions the rate-limit store did not answer, by rule and cause (timeout, error); "
                    + "the rule's on-store-failure policy answered them").build();
    static final Metadata REFUNDS = Metadata.builder().withName("tollgate.refunds")
            .withDescription("Requests whose tokens were given back by their outcome (charge-on, refund-on) or the application, "
                    + "by rule and result (refunded, failed: the store did not take them, they stay charged)").build();
    static final Metadata DECISION_TIME = Metadata.builder().withName("tollgate.decision.time")
            .withDescription("How long rate-limit decisions took their callers, by rule").withUnit(MetricUnits.NANOSECONDS).build();

    private final Map<String, RuleMetrics> rules = new HashMap<>();

    public MicroProfileMetrics(MetricRegistry registry, Collection<RuleConfig> rules) {
        for (RuleConfig rule : rules) {
            this.rules.put(rule.name(), new RuleMetrics(registry, new Tag("rule", rule.name())));
        }
    }

    @Override
    public void decided(RuleConfig rule, String key, Decision decision, long nanos) {
        RuleMetrics metrics = rules.get(rule.name());
        if (metrics == null) {
            return;
        }
        if (decision.shadowDenied()) {
            metrics.shadowDenied.inc();
        } else if (decision.allowed()) {
            metrics.allowed.inc();
        } else {
            metrics.denied.inc();
        }
        metrics.time.update(Duration.ofNanos(nanos));
    }

    @Override
    public void storeFailed(RuleConfig rule, String key, boolean timedOut, Decision decision) {
        RuleMetrics metrics = rules.get(rule.name());
        if (metrics != null) {
            (timedOut ? metrics.timeouts : metrics.errors).inc();
        }
    }

    @Override
    public void refunded(RuleConfig rule, String key, long tokens, boolean failed) {
        RuleMetrics metrics = rules.get(rule.name());
        if (metrics != null) {
            (failed ? metrics.refundsFailed : metrics.refunded).inc();
        }
    }

    private static final class RuleMetrics {
        final Counter allowed;
        final Counter denied;
        final Counter shadowDenied;
        final Counter timeouts;
        final Counter errors;
        final Counter refunded;
        final Counter refundsFailed;
        final Timer time;

        RuleMetrics(MetricRegistry registry, Tag rule) {
            allowed = registry.counter(DECISIONS, rule, new Tag("outcome", "allowed"));
            denied = registry.counter(DECISIONS, rule, new Tag("outcome", "denied"));
            shadowDenied = registry.counter(DECISIONS, rule, new Tag("outcome", "shadow-denied"));
            timeouts = registry.counter(STORE_FAILURES, rule, new Tag("cause", "timeout"));
            errors = registry.counter(STORE_FAILURES, rule, new Tag("cause", "error"));
            refunded = registry.counter(REFUNDS, rule, new Tag("result", "refunded"));
            refundsFailed = registry.counter(REFUNDS, rule, new Tag("result", "failed"));
            time = registry.timer(DECISION_TIME, rule);
        }
    }
}
