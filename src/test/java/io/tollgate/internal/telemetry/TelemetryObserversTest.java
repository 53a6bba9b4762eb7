package io.tollgate.internal.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.MeterProvider;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.TracerProvider;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.tollgate.Decision;
import io.tollgate.internal.config.TollgateConfig;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.limiter.DecisionObserver;
import io.tollgate.internal.limiter.Limiter;
import io.tollgate.internal.store.Bans;
import io.tollgate.internal.store.InMemoryBucketStore;
import io.tollgate.testing.TestClock;
import io.tollgate.testing.TestRules;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Tollgate's decisions through the OpenTelemetry API, read back from the SDK's in-memory reader and exporter: exact
 * counts per rule and outcome, store failures by type, near-limit decisions, the histogram's count, the current span's
 * attributes and the denial event; and nothing at all through the API's no-op.
 */
class TelemetryObserversTest {

    private static final AttributeKey<String> RULE = AttributeKey.stringKey("tollgate.rule");
    private static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("tollgate.outcome");

    private final InMemoryMetricReader metrics = InMemoryMetricReader.create();
    private final InMemorySpanExporter spans = InMemorySpanExporter.create();
    private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
            .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(metrics).build())
            .setTracerProvider(SdkTracerProvider.builder().setSampler(Sampler.alwaysOn())
                    .addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
            .build();
    private final TestClock clock = TestClock.atRealTime();
    // search: burst 10, 1 token an hour; shadow: burst 2, in shadow mode; guarded: burst 1, banning at the second
    // denial; nothing refills during the test
    private final TollgateConfig config = TestRules.read(Map.ofEntries(
            Map.entry("tollgate.rules.search.rate", "1/1h"),
            Map.entry("tollgate.rules.search.burst", "10"),
            Map.entry("tollgate.rules.shadow.rate", "1/1h"),
            Map.entry("tollgate.rules.shadow.burst", "2"),
            Map.entry("tollgate.rules.shadow.mode", "shadow"),
            Map.entry("tollgate.rules.fragile.rate", "1/1h"),
            Map.entry("tollgate.rules.fragile.on-store-failure", "deny"),
            Map.entry("tollgate.rules.guarded.rate", "1/1h"),
            Map.entry("tollgate.rules.guarded.burst", "1"),
            Map.entry("tollgate.rules.guarded.ban-after", "2/1h"),
            Map.entry("tollgate.rules.guarded.ban-for", "1h"),
            Map.entry("tollgate.near-limit", "0.3")));

    @AfterEach
    void close() {
        sdk.close();
    }

    private Limiter limiter(OpenTelemetry openTelemetry) {
        return new Limiter(new InMemoryBucketStore(clock, 1_000), Duration.ofSeconds(5), TelemetryObservers.of(openTelemetry, config));
    }

    private Map<Attributes, Long> counts(String instrument) {
        Map<Attributes, Long> counts = new HashMap<>();
        for (MetricData metric : metrics.collectAllMetrics()) {
            if (metric.getName().equals(instrument)) {
                assertThat(metric.getInstrumentationScopeInfo().getName()).isEqualTo("io.tollgate");
                for (LongPointData point : metric.getLongSumData().getPoints()) {
                    counts.put(point.getAttributes(), point.getValue());
                }
            }
        }
        return counts;
    }

    /** The gauge counts the members of the store's cluster at each collection, and lets go of it when closed. */
    @Test
    void theClusterMembersGaugeReadsTheStoresClusterAtEachCollection() {
        io.tollgate.testing.TestCluster cluster = new io.tollgate.testing.TestCluster(3, 3);
        DecisionObserver observer = TelemetryObservers.of(sdk, config, cluster);
        assertThat(gauge("tollgate.cluster.members")).containsExactly(3L);
        cluster.members(1);
        assertThat(gauge("tollgate.cluster.members")).containsExactly(1L);
        observer.close();
        assertThat(gauge("tollgate.cluster.members")).isEmpty();
    }

    private List<Long> gauge(String instrument) {
        List<Long> values = new java.util.ArrayList<>();
        for (MetricData metric : metrics.collectAllMetrics()) {
            if (metric.getName().equals(instrument)) {
                metric.getLongGaugeData().getPoints().forEach(point -> values.add(point.getValue()));
            }
        }
        return values;
    }

    private static Attributes decisions(String rule, String outcome) {
        return Attributes.of(RULE, rule, OUTCOME, outcome);
    }

    @Test
    void everyDecisionIsCountedByRuleAndOutcomeFromZeroOn() {
        Limiter limiter = limiter(sdk);
        assertThat(counts("tollgate.decisions")).as("every rule's counters exist from deployment on")
                .containsEntry(decisions("search", "allowed"), 0L).containsEntry(decisions("search", "denied"), 0L)
                .containsEntry(decisions("shadow", "shadow-denied"), 0L).containsEntry(decisions("fragile", "allowed"), 0L);
        for (int i = 0; i < 13; i++) {
            limiter.check(config.rule("search"), "client-a", 1);
        }
        for (int i = 0; i < 4; i++) {
            limiter.check(config.rule("search"), "client-b", 1);
            limiter.check(config.rule("shadow"), "client-b", 1);
        }
        Map<Attributes, Long> counts = counts("tollgate.decisions");
        assertThat(counts.get(decisions("search", "allowed"))).isEqualTo(14);
        assertThat(counts.get(decisions("search", "denied"))).isEqualTo(3);
        assertThat(counts.get(decisions("search", "shadow-denied"))).isEqualTo(0);
        assertThat(counts.get(decisions("shadow", "allowed"))).isEqualTo(2);
        assertThat(counts.get(decisions("shadow", "shadow-denied"))).isEqualTo(2);
        assertThat(counts.get(decisions("shadow", "denied"))).isEqualTo(0);
        // 21 decisions in all, each one point in its rule's histogram
        Map<String, Long> histogramCounts = new HashMap<>();
        for (MetricData metric : metrics.collectAllMetrics()) {
            if (metric.getName().equals("tollgate.decision.duration")) {
                assertThat(metric.getUnit()).isEqualTo("s");
                for (HistogramPointData point : metric.getHistogramData().getPoints()) {
                    histogramCounts.put(point.getAttributes().get(RULE), point.getCount());
                    assertThat(point.getSum()).isPositive().isLessThan(5.0 * point.getCount());
                }
            }
        }
        assertThat(histogramCounts).isEqualTo(Map.of("search", 17L, "shadow", 4L));
    }

    /** A ban's refusals are counted as banned, the bans themselves apart; a rule without a ban has neither. */
    @Test
    void bannedRequestsAndBansAreCountedForARuleWithABan() {
        Limiter limiter = limiter(sdk);
        assertThat(counts("tollgate.decisions")).containsEntry(decisions("guarded", "banned"), 0L)
                .doesNotContainKey(decisions("search", "banned"));
        assertThat(counts("tollgate.bans")).isEqualTo(Map.of(Attributes.of(RULE, "guarded"), 0L));
        for (int i = 0; i < 5; i++) { // 1 allowed, 2 denied (the second starts the ban), 2 refused by the ban
            limiter.check(config.rule("guarded"), "client-a", 1);
        }
        Map<Attributes, Long> counts = counts("tollgate.decisions");
        assertThat(counts.get(decisions("guarded", "allowed"))).isEqualTo(1);
        assertThat(counts.get(decisions("guarded", "denied"))).isEqualTo(2);
        assertThat(counts.get(decisions("guarded", "banned"))).isEqualTo(2);
        assertThat(counts("tollgate.bans")).isEqualTo(Map.of(Attributes.of(RULE, "guarded"), 1L));
        assertThat(counts("tollgate.bans.skipped")).isEqualTo(Map.of(Attributes.of(RULE, "guarded"), 0L));
    }

    /** A member that keeps one ban: the denials of a second key, which start none, are counted as skipped. */
    @Test
    void denialsBeyondTheBoundOfBansAreCountedAsSkipped() {
        InMemoryBucketStore store = new InMemoryBucketStore(clock, 1_000);
        Limiter limiter = new Limiter(store, Duration.ofSeconds(5), TelemetryObservers.of(sdk, config), Bans.local(store, 1));
        for (String key : List.of("client-a", "client-b")) {
            for (int i = 0; i < 4; i++) { // a: 1 allowed, 2 denied (the second bans), 1 banned; b: 1 allowed, 3 skipped
                limiter.check(config.rule("guarded"), key, 1);
            }
        }
        assertThat(counts("tollgate.bans")).isEqualTo(Map.of(Attributes.of(RULE, "guarded"), 1L));
        assertThat(counts("tollgate.bans.skipped")).isEqualTo(Map.of(Attributes.of(RULE, "guarded"), 3L));
        assertThat(counts("tollgate.decisions").get(decisions("guarded", "denied"))).isEqualTo(5);
    }

    @Test
    void allowedDecisionsThatLeaveTheBucketBelowTheThresholdAreNearTheLimit() {
        Limiter limiter = limiter(sdk);
        // burst 10, near-limit 0.3: the decisions that leave 2, 1 and 0 tokens; not the denials after them
        for (int i = 0; i < 12; i++) {
            limiter.check(config.rule("search"), "client", 1);
        }
        // burst 2: 0.6 of a token, so only the decision that leaves 0; never a shadow denial
        for (int i = 0; i < 4; i++) {
            limiter.check(config.rule("shadow"), "client", 1);
        }
        assertThat(counts("tollgate.near_limit")).isEqualTo(Map.of(Attributes.of(RULE, "search"), 3L,
                Attributes.of(RULE, "shadow"), 1L, Attributes.of(RULE, "fragile"), 0L, Attributes.of(RULE, "guarded"), 0L));
    }

    /** The refunds the README tells operators to watch: given back, or failed (the tokens stay charged). */
    @Test
    void refundsAreCountedByRuleAndResultFromZeroOn() {
        Limiter limiter = limiter(sdk);
        Limiter failing = new Limiter((key, bucket, cost) -> CompletableFuture.failedFuture(new IllegalStateException("down")),
                Duration.ofSeconds(5), TelemetryObservers.of(sdk, config));
        AttributeKey<String> result = AttributeKey.stringKey("tollgate.result");
        assertThat(counts("tollgate.refunds")).containsEntry(Attributes.of(RULE, "search", result, "refunded"), 0L)
                .containsEntry(Attributes.of(RULE, "search", result, "failed"), 0L);
        assertThat(limiter.check(config.rule("search"), "client", 2).allowed()).isTrue();
        assertThat(limiter.refund(config.rule("search"), "client", 2)).isNotNull();
        assertThat(failing.refund(config.rule("search"), "client", 1)).as("the store did not take it").isNull();
        Map<Attributes, Long> counts = counts("tollgate.refunds");
        assertThat(counts.get(Attributes.of(RULE, "search", result, "refunded"))).isEqualTo(1);
        assertThat(counts.get(Attributes.of(RULE, "search", result, "failed"))).isEqualTo(1);
        assertThat(counts.get(Attributes.of(RULE, "fragile", result, "refunded"))).isZero();
    }

    @Test
    void storeFailuresAreCountedByErrorTypeAndTheirAnswersByOutcome() {
        Limiter failing = new Limiter((key, bucket, cost) -> CompletableFuture.failedFuture(new IllegalStateException("down")),
                Duration.ofSeconds(5), TelemetryObservers.of(sdk, config));
        Limiter hanging = new Limiter((key, bucket, cost) -> new CompletableFuture<Outcome>(), Duration.ofMillis(10),
                TelemetryObservers.of(sdk, config));
        failing.check(config.rule("fragile"), "a", 1);
        failing.check(config.rule("search"), "a", 1);
        hanging.check(config.rule("fragile"), "a", 1);
        AttributeKey<String> errorType = AttributeKey.stringKey("error.type");
        assertThat(counts("tollgate.store.failures"))
                .containsEntry(Attributes.of(RULE, "fragile", errorType, "error"), 1L)
                .containsEntry(Attributes.of(RULE, "fragile", errorType, "timeout"), 1L)
                .containsEntry(Attributes.of(RULE, "search", errorType, "error"), 1L)
                .containsEntry(Attributes.of(RULE, "search", errorType, "timeout"), 0L);
        Map<Attributes, Long> decisions = counts("tollgate.decisions");
        assertThat(decisions.get(decisions("fragile", "denied"))).as("on-store-failure=deny").isEqualTo(2);
        assertThat(decisions.get(decisions("search", "allowed"))).as("on-store-failure=allow").isEqualTo(1);
        assertThat(counts("tollgate.near_limit").values()).as("a policy's answer knows nothing of the bucket").containsOnly(0L);
    }

    private SpanData inSpan(Supplier<Decision> decide) {
        Span span = sdk.getTracer("test").spanBuilder("GET /search").startSpan();
        try (Scope scope = span.makeCurrent()) {
            decide.get();
        } finally {
            span.end();
        }
        List<SpanData> finished = spans.getFinishedSpanItems();
        spans.reset();
        assertThat(finished).hasSize(1);
        return finished.get(0);
    }

    @Test
    void theDecisionIsAddedToTheCurrentSpanWithAnEventOnDenial() {
        Limiter limiter = limiter(sdk);
        SpanData allowed = inSpan(() -> limiter.check(config.rule("search"), "client", 9));
        assertThat(allowed.getAttributes().asMap()).isEqualTo(Map.of(RULE, "search", OUTCOME, "allowed",
                AttributeKey.longKey("tollgate.remaining"), 1L));
        assertThat(allowed.getEvents()).isEmpty();

        SpanData denied = inSpan(() -> limiter.check(config.rule("search"), "client", 2));
        assertThat(denied.getAttributes().get(OUTCOME)).isEqualTo("denied");
        assertThat(denied.getAttributes().get(AttributeKey.longKey("tollgate.remaining"))).isEqualTo(1L);
        assertThat(denied.getEvents()).hasSize(1);
        EventData event = denied.getEvents().get(0);
        assertThat(event.getName()).isEqualTo("tollgate.denied");
        assertThat(event.getAttributes().get(RULE)).isEqualTo("search");
        assertThat(event.getAttributes().get(AttributeKey.booleanKey("tollgate.shadow"))).isFalse();
        assertThat(event.getAttributes().get(AttributeKey.doubleKey("tollgate.retry_after"))).as("1 token an hour, 1 missing")
                .isEqualTo(3600.0);

        limiter.check(config.rule("shadow"), "client", 2);
        SpanData shadow = inSpan(() -> limiter.check(config.rule("shadow"), "client", 1));
        assertThat(shadow.getAttributes().get(OUTCOME)).isEqualTo("shadow-denied");
        assertThat(shadow.getEvents()).singleElement()
                .satisfies(e -> assertThat(e.getAttributes().get(AttributeKey.booleanKey("tollgate.shadow"))).isTrue());
    }

    @Test
    void aStoreFailureIsOnTheSpanWithItsType() {
        Limiter failing = new Limiter((key, bucket, cost) -> CompletableFuture.failedFuture(new IllegalStateException("down")),
                Duration.ofSeconds(5), TelemetryObservers.of(sdk, config));
        SpanData span = inSpan(() -> failing.check(config.rule("fragile"), "client", 1));
        assertThat(span.getAttributes().asMap()).isEqualTo(Map.of(RULE, "fragile", OUTCOME, "store-failure",
                AttributeKey.stringKey("error.type"), "error"));
        assertThat(span.getEvents()).as("the policy denied").singleElement()
                .satisfies(e -> assertThat(e.getName()).isEqualTo("tollgate.denied"));
    }

    @Test
    void aSpanThatIsNotRecordingGetsNothing() {
        OpenTelemetrySdk sampledOut = OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
                .setSampler(Sampler.alwaysOff()).addSpanProcessor(SimpleSpanProcessor.create(spans)).build()).build();
        Limiter limiter = limiter(sampledOut);
        Span span = sampledOut.getTracer("test").spanBuilder("GET /search").startSpan();
        try (Scope scope = span.makeCurrent()) {
            limiter.check(config.rule("search"), "client", 10);
            limiter.check(config.rule("search"), "client", 1);
        } finally {
            span.end();
        }
        assertThat(span.isRecording()).isFalse();
        assertThat(spans.getFinishedSpanItems()).isEmpty();
        sampledOut.close();
    }

    @Test
    void withTelemetryOffNothingIsObserved() {
        // what MicroProfile Telemetry gives the application with otel.sdk.disabled=true, its default
        assertThat(TelemetryObservers.of(OpenTelemetry.noop(), config)).isSameAs(DecisionObserver.NONE);
        // metrics without tracing: the instruments, and no look-up of the current span
        OpenTelemetry metricsOnly = new OpenTelemetry() {
            @Override
            public TracerProvider getTracerProvider() {
                return TracerProvider.noop();
            }

            @Override
            public MeterProvider getMeterProvider() {
                return sdk.getMeterProvider();
            }

            @Override
            public ContextPropagators getPropagators() {
                return ContextPropagators.noop();
            }
        };
        assertThat(TelemetryObservers.of(metricsOnly, config)).isInstanceOf(TelemetryMetrics.class);
    }
}
