package io.tollgate.internal.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.eclipse.microprofile.metrics.Metadata;
import org.junit.jupiter.api.Test;

/** One name per metric: MicroProfile Metrics registers each under the name its OpenTelemetry instrument has. */
class MetricNamesTest {

    @Test
    void microProfileMetricsNamesAreTheOpenTelemetryInstrumentNames() {
        assertThat(Stream.of(MicroProfileMetrics.DECISIONS, MicroProfileMetrics.STORE_FAILURES, MicroProfileMetrics.NEAR_LIMIT,
                MicroProfileMetrics.BANS, MicroProfileMetrics.BANS_SKIPPED, MicroProfileMetrics.REFUNDS,
                MicroProfileMetrics.DECISION_DURATION, MicroProfileMetrics.CLUSTER_MEMBERS).map(Metadata::getName))
                .containsExactly("tollgate.decisions", "tollgate.store.failures", "tollgate.near_limit", "tollgate.bans",
                        "tollgate.bans.skipped", "tollgate.refunds", "tollgate.decision.duration", "tollgate.cluster.members");
    }
}
