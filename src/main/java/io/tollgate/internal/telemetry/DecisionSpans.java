package io.tollgate.internal.telemetry;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.tollgate.Decision;
import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.limiter.DecisionObserver;

/**
 * Adds each decision to the current span (the server's span of the HTTP request, or the application's own): the
 * attributes {@code tollgate.rule}, {@code tollgate.outcome} (allowed, denied, shadow-denied, store-failure) and
 * {@code tollgate.remaining}, and on a denial or a shadow rule's would-be denial the event {@code tollgate.denied}. With
 * several rules on one request the attributes are the last rule's: the one that denied, if one did. A span that is not
 * recording (none, or not sampled) costs one look-up.
 */
final class DecisionSpans implements DecisionObserver {

    static final String DENIED_EVENT = "tollgate.denied";
    static final AttributeKey<Long> REMAINING = AttributeKey.longKey("tollgate.remaining");
    static final AttributeKey<Double> RETRY_AFTER = AttributeKey.doubleKey("tollgate.retry_after");
    static final AttributeKey<Boolean> SHADOW = AttributeKey.booleanKey("tollgate.shadow");

    @Override
    public void decided(RuleConfig rule, String key, Decision decision, long nanos) {
        Span span = Span.current();
        if (!span.isRecording()) {
            return;
        }
        span.setAttribute(TelemetryMetrics.RULE, rule.name());
        span.setAttribute(TelemetryMetrics.OUTCOME, Outcome.traced(decision).value);
        if (!decision.storeUnavailable()) {
            span.setAttribute(REMAINING, decision.remaining());
        }
        if (!decision.allowed() || decision.shadowDenied()) {
            span.addEvent(DENIED_EVENT, Attributes.of(TelemetryMetrics.RULE, rule.name(),
                    RETRY_AFTER, decision.retryAfterMicros() / 1e6, SHADOW, decision.shadowDenied()));
        }
    }

    @Override
    public void storeFailed(RuleConfig rule, String key, boolean timedOut, Decision decision) {
        Span span = Span.current();
        if (span.isRecording()) {
            span.setAttribute(TelemetryMetrics.ERROR_TYPE, timedOut ? "timeout" : "error");
        }
    }
}
