package io.tollgate.internal.metrics;

import io.tollgate.Decision;
import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.limiter.DecisionObserver;
import io.tollgate.internal.limiter.NearLimit;
import io.tollgate.internal.store.StoreCluster;
import java.time.Duration;
import java.time.Instant;
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
 * {@code tollgate.decisions} by {@code outcome} (allowed, denied, shadow-denied, and banned for a rule with a ban),
 * {@code tollgate.store.failures} by {@code cause} (timeout, error), {@code tollgate.near_limit} (allowed
 * decisions that left the bucket below {@code tollgate.near-limit}), {@code tollgate.bans} (bans started on this
 * member, for a rule with a ban) and {@code tollgate.bans.skipped} (denials that started none, this member holding
 * {@code tollgate.bans.max-entries} bans), {@code tollgate.refunds} by {@code result} (refunded, failed) and the timer
 * {@code tollgate.decision.duration}; and the gauge {@code tollgate.cluster.members}, untagged. Every metric exists from
 * deployment on, so a rule that never denied shows 0.
 * Only loaded where the server offers MicroProfile Metrics.
 */
public final class MicroProfileMetrics implements DecisionObserver {

    static final Metadata DECISIONS = Metadata.builder().withName("tollgate.decisions")
            .withDescription("Rate-limit decisions, by rule and outcome (allowed, denied, shadow-denied, banned)").build();
    static final Metadata STORE_FAILURES = Metadata.builder().withName("tollgate.store.failures")
            .withDescription("Decisions the rate-limit store did not answer, by rule and cause (timeout, error); "
                    + "the rule's on-store-failure policy answered them").build();
    static final Metadata NEAR_LIMIT = Metadata.builder().withName("tollgate.near_limit")
            .withDescription("Allowed rate-limit decisions that left the bucket below tollgate.near-limit of its burst, by rule")
            .build();
    static final Metadata BANS = Metadata.builder().withName("tollgate.bans")
            .withDescription("Bans started by this member after repeated denials, by rule").build();
    static final Metadata BANS_SKIPPED = Metadata.builder().withName("tollgate.bans.skipped")
            .withDescription("Denials counted towards no ban, and starting none, because this member held "
                    + "tollgate.bans.max-entries bans, by rule").build();
    static final Metadata REFUNDS = Metadata.builder().withName("tollgate.refunds")
            .withDescription("Requests whose tokens were given back by their outcome (charge-on, refund-on) or the application, "
                    + "by rule and result (refunded, failed: the store did not take them, they stay charged)").build();
    static final Metadata DECISION_DURATION = Metadata.builder().withName("tollgate.decision.duration")
            .withDescription("How long rate-limit decisions took their callers, by rule").withUnit(MetricUnits.NANOSECONDS).build();

    static final Metadata CLUSTER_MEMBERS = Metadata.builder().withName("tollgate.cluster.members")
            .withDescription("Members of the cluster that keeps the rate-limit buckets, as this instance sees it").build();

    private final Map<String, RuleMetrics> rules = new HashMap<>();
    private final NearLimit nearLimit;

    public MicroProfileMetrics(MetricRegistry registry, Collection<RuleConfig> rules, NearLimit nearLimit) {
        this(registry, rules, nearLimit, StoreCluster.ALONE);
    }

    /** @param cluster the store's cluster, whose members the gauge {@code tollgate.cluster.members} counts */
    public MicroProfileMetrics(MetricRegistry registry, Collection<RuleConfig> rules, NearLimit nearLimit, StoreCluster cluster) {
        this.nearLimit = nearLimit;
        registry.gauge(CLUSTER_MEMBERS, cluster, StoreCluster::members);
        for (RuleConfig rule : rules) {
            this.rules.put(rule.name(), new RuleMetrics(registry, new Tag("rule", rule.name()), rule.ban() != null));
        }
    }

    @Override
    public void decided(RuleConfig rule, String key, Decision decision, long nanos) {
        RuleMetrics metrics = rules.get(rule.name());
        if (metrics == null) {
            return;
        }
        if (decision.banned()) {
            metrics.banned.inc();
        } else if (decision.shadowDenied()) {
            metrics.shadowDenied.inc();
        } else if (decision.allowed()) {
            metrics.allowed.inc();
            if (nearLimit.test(decision)) {
                metrics.nearLimit.inc();
            }
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
    public void banned(RuleConfig rule, String key, Instant until) {
        RuleMetrics metrics = rules.get(rule.name());
        if (metrics != null && metrics.bans != null) {
            metrics.bans.inc();
        }
    }

    @Override
    public void banSkipped(RuleConfig rule, String key) {
        RuleMetrics metrics = rules.get(rule.name());
        if (metrics != null && metrics.bansSkipped != null) {
            metrics.bansSkipped.inc();
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
        final Counter nearLimit;
        /** For a rule with a ban: requests its bans refused, bans started, denials that started none; else {@code null}. */
        final Counter banned;
        final Counter bans;
        final Counter bansSkipped;
        final Counter refunded;
        final Counter refundsFailed;
        final Timer time;

        RuleMetrics(MetricRegistry registry, Tag rule, boolean bans) {
            allowed = registry.counter(DECISIONS, rule, new Tag("outcome", "allowed"));
            denied = registry.counter(DECISIONS, rule, new Tag("outcome", "denied"));
            shadowDenied = registry.counter(DECISIONS, rule, new Tag("outcome", "shadow-denied"));
            timeouts = registry.counter(STORE_FAILURES, rule, new Tag("cause", "timeout"));
            errors = registry.counter(STORE_FAILURES, rule, new Tag("cause", "error"));
            nearLimit = registry.counter(NEAR_LIMIT, rule);
            banned = bans ? registry.counter(DECISIONS, rule, new Tag("outcome", "banned")) : null;
            this.bans = bans ? registry.counter(BANS, rule) : null;
            bansSkipped = bans ? registry.counter(BANS_SKIPPED, rule) : null;
            refunded = registry.counter(REFUNDS, rule, new Tag("result", "refunded"));
            refundsFailed = registry.counter(REFUNDS, rule, new Tag("result", "failed"));
            time = registry.timer(DECISION_DURATION, rule);
        }
    }
}
