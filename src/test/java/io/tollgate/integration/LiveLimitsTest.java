package io.tollgate.integration;

import static io.tollgate.testing.Http.header;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.RateLimitRuleChanged;
import io.tollgate.RateLimitRules;
import io.tollgate.app.RecordedRuleChanges;
import io.tollgate.app.SearchResource;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.SharedCluster;
import io.tollgate.testing.TestApp;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A limit changed at runtime through the injected RateLimitRules moves the 429 point and the rate-limit headers, and
 * the application's CDI observers hear of it.
 */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
class LiveLimitsTest {

    @Test
    void aLimitChangedAtRuntimeChangesWhereRequestsAreDeniedAndTheHeaders(HazelcastTestCluster cluster) throws Exception {
        cluster.clock().set(2_600_000_000L * 1_000_000);
        try (TestApp app = TestApp.builder().beans(SearchResource.class, RecordedRuleChanges.class).hazelcast(cluster.member(0))
                .property("tollgate.hazelcast.map", "live-" + UUID.randomUUID())
                .property("tollgate.rules.search.rate", "1/1h")
                .property("tollgate.rules.search.burst", "2")
                .start()) {
            assertThat(app.get("search?q=1").statusCode()).isEqualTo(200);
            assertThat(app.get("search?q=2").statusCode()).isEqualTo(200);
            assertThat(app.get("search?q=3").statusCode()).isEqualTo(429);

            app.bean(RateLimitRules.class).change("search", Map.of("rate", "5/1s", "burst", "5"));
            assertThat(app.bean(RecordedRuleChanges.class).changes()).as("the application's CDI observer").singleElement()
                    .satisfies(change -> {
                        assertThat(change.rule()).isEqualTo("search");
                        assertThat(change.source()).isEqualTo(RateLimitRuleChanged.Source.API);
                        assertThat(change.changes()).containsExactly(
                                Map.entry("limits", new RateLimitRuleChanged.Change("1/1h burst 2", "5/1s burst 5")));
                    });
            cluster.clock().set(2_600_000_001L * 1_000_000); // a second later: 5 tokens at the new rate
            var allowed = app.get("search?q=4");
            assertThat(allowed.statusCode()).isEqualTo(200);
            assertThat(header(allowed, "RateLimit-Policy")).isEqualTo("\"search\";q=5;w=1");
            assertThat(header(allowed, "RateLimit")).isEqualTo("\"search\";r=4;t=1");
            int granted = 1;
            while (app.get("search?q=more").statusCode() == 200) {
                granted++;
            }
            assertThat(granted).isEqualTo(5);
        }
    }
}
