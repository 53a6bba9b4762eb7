package io.tollgate.internal.telemetry;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.DoubleHistogramBuilder;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.metrics.ObservableLongGauge;
import io.tollgate.Decision;
import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.limiter.DecisionObserver;
import io.tollgate.internal.limiter.NearLimit;
import io.tollgate.internal.store.StoreCluster;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Tollgate's instruments in an OpenTelemetry {@link Meter}, each with the attribute {@code tollgate.rule}: the counters
 * {@code tollgate.decisions} by {@code tollgate.outcome} (allowed, denied, shadow-denied, and banned for a rule with a
 * ban), {@code tollgate.store.failures} by {@code error.type} (timeout, error), {@code tollgate.near_limit} and, for a
 * rule with a ban, {@code tollgate.bans} (bans started on this member) and {@code tollgate.bans.skipped} (denials that
 * started none, this member holding {@code tollgate.bans.max-entries} bans), {@code tollgate.refunds} by
 * {@code tollgate.result} (refunded, failed: the store did not take them), and the histogram
 * {@code tollgate.decision.duration} in seconds. Every attribute set is made at deployment, and every counter of every
 * rule starts at 0 then, so a request builds nothing and a rule that never denied shows 0.
 */
final class TelemetryMetrics implements DecisionObserver {

    static final AttributeKey<String> RULE = AttributeKey.stringKey("tollgate.rule");
    static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("tollgate.outcome");
    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    static final AttributeKey<String> RESULT = AttributeKey.stringKey("tollgate.result");
    /** Seconds, from 100 µs (a local decision) to the longest store timeout worth having. */
    private static final List<Double> DURATION_BUCKETS = List.of(0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
            0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0);

    private final LongCounter decisions;
    private final LongCounter storeFailures;
    private final LongCounter nearLimitCount;
    private final LongCounter bans;
    private final LongCounter bansSkipped;
    private final LongCounter refunds;
    private final DoubleHistogram duration;
    private final ObservableLongGauge members;
    private final NearLimit nearLimit;
    private final Map<String, RuleAttributes> rules = new HashMap<>();

    TelemetryMetrics(Meter meter, Collection<RuleConfig> rules, NearLimit nearLimit, StoreCluster cluster) {
        this.nearLimit = nearLimit;
        members = meter.gaugeBuilder("tollgate.cluster.members").ofLongs().setUnit("{member}")
                .setDescription("Members of the cluster that keeps the rate-limit buckets, as this instance sees it")
                .buildWithCallback(measurement -> measurement.record(cluster.members()));
        decisions = meter.counterBuilder("tollgate.decisions").setUnit("{decision}")
                .setDescription("Rate-limit decisions, by rule and outcome (allowed, denied, shadow-denied, banned)").build();
        storeFailures = meter.counterBuilder("tollgate.store.failures").setUnit("{decision}")
                .setDescription("Decisions the rate-limit store did not answer, by rule and error type (timeout, error); "
                        + "the rule's on-store-failure policy answered them").build();
        nearLimitCount = meter.counterBuilder("tollgate.near_limit").setUnit("{decision}")
                .setDescription("Allowed rate-limit decisions that left the bucket below tollgate.near-limit of its burst, by rule")
                .build();
        bans = meter.counterBuilder("tollgate.bans").setUnit("{ban}")
                .setDescription("Bans started by this member after repeated denials, by rule").build();
        bansSkipped = meter.counterBuilder("tollgate.bans.skipped").setUnit("{denial}")
                .setDescription("Denials counted towards no ban, and starting none, because this member held "
                        + "tollgate.bans.max-entries bans, by rule").build();
        refunds = meter.counterBuilder("tollgate.refunds").setUnit("{request}")
                .setDescription("Requests whose tokens were given back by their outcome (charge-on, refund-on) or the "
                        + "application, by rule and result (refunded, failed: the store did not take them, they stay charged)")
                .build();
        duration = withBuckets(meter.histogramBuilder("tollgate.decision.duration").setUnit("s")
                .setDescription("How long rate-limit decisions took their callers, by rule")).build();
        for (RuleConfig rule : rules) {
            RuleAttributes attributes = new RuleAttributes(rule.name());
            this.rules.put(rule.name(), attributes);
            for (Outcome outcome : Outcome.values()) {
                if (outcome != Outcome.STORE_FAILURE && (outcome != Outcome.BANNED || rule.ban() != null)) {
                    decisions.add(0, attributes.outcomes[outcome.ordinal()]);
                }
            }
            if (rule.ban() != null) {
                bans.add(0, attributes.rule);
                bansSkipped.add(0, attributes.rule);
            }
            storeFailures.add(0, attributes.timeout);
            storeFailures.add(0, attributes.error);
            nearLimitCount.add(0, attributes.rule);
            refunds.add(0, attributes.refunded);
            refunds.add(0, attributes.refundFailed);
        }
    }

    /**
     * Advises bucket boundaries fit for decisions (OpenTelemetry API 1.32 and later; an older one keeps the SDK's
     * default boundaries, which are made for milliseconds).
     */
    private static DoubleHistogramBuilder withBuckets(DoubleHistogramBuilder builder) {
        try {
            DoubleHistogramBuilder.class.getMethod("setExplicitBucketBoundariesAdvice", List.class).invoke(builder, DURATION_BUCKETS);
        } catch (ReflectiveOperationException | RuntimeException e) {
            // an API before 1.32
        }
        return builder;
    }

    @Override
    public void decided(RuleConfig rule, String key, Decision decision, long nanos) {
        RuleAttributes attributes = rules.get(rule.name());
        if (attributes == null) {
            return;
        }
        decisions.add(1, attributes.outcomes[Outcome.counted(decision).ordinal()]);
        if (nearLimit.test(decision)) {
            nearLimitCount.add(1, attributes.rule);
        }
        duration.record(nanos / 1e9, attributes.rule);
    }

    @Override
    public void storeFailed(RuleConfig rule, String key, boolean timedOut, Decision decision) {
        RuleAttributes attributes = rules.get(rule.name());
        if (attributes != null) {
            storeFailures.add(1, timedOut ? attributes.timeout : attributes.error);
        }
    }

    @Override
    public void banned(RuleConfig rule, String key, Instant until) {
        RuleAttributes attributes = rules.get(rule.name());
        if (attributes != null) {
            bans.add(1, attributes.rule);
        }
    }

    @Override
    public void banSkipped(RuleConfig rule, String key) {
        RuleAttributes attributes = rules.get(rule.name());
        if (attributes != null) {
            bansSkipped.add(1, attributes.rule);
        }
    }

    @Override
    public void refunded(RuleConfig rule, String key, long tokens, boolean failed) {
        RuleAttributes attributes = rules.get(rule.name());
        if (attributes != null) {
            refunds.add(1, failed ? attributes.refundFailed : attributes.refunded);
        }
    }

    @Override
    public void close() {
        members.close();
    }

    /** The attribute sets of one rule. */
    private static final class RuleAttributes {
        final Attributes rule;
        /** By {@link Outcome#ordinal()}: allowed, denied, shadow-denied, banned. */
        final Attributes[] outcomes;
        final Attributes timeout;
        final Attributes error;
        final Attributes refunded;
        final Attributes refundFailed;

        RuleAttributes(String name) {
            rule = Attributes.of(RULE, name);
            outcomes = new Attributes[] {Attributes.of(RULE, name, OUTCOME, Outcome.ALLOWED.value),
                    Attributes.of(RULE, name, OUTCOME, Outcome.DENIED.value), Attributes.of(RULE, name, OUTCOME, Outcome.SHADOW_DENIED.value),
                    Attributes.of(RULE, name, OUTCOME, Outcome.BANNED.value)};
            timeout = Attributes.of(RULE, name, ERROR_TYPE, "timeout");
            error = Attributes.of(RULE, name, ERROR_TYPE, "error");
            refunded = Attributes.of(RULE, name, RESULT, "refunded");
            refundFailed = Attributes.of(RULE, name, RESULT, "failed");
        }
    }
}
