package io.tollgate.integration;

import static io.tollgate.testing.Http.header;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.Decision;
import io.tollgate.RateLimiter;
import io.tollgate.app.SearchResource;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.SharedCluster;
import io.tollgate.testing.TestApp;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A rule in shadow mode decides and counts, but never rejects. */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
class ShadowModeTest {

    @Test
    void shadowRulesLetEverythingThroughAndReportWhatTheyWouldHaveDenied(HazelcastTestCluster cluster) throws Exception {
        cluster.clock().set(2_500_000_000L * 1_000_000);
        try (TestApp app = TestApp.builder().beans(SearchResource.class).hazelcast(cluster.member(0))
                .property("tollgate.hazelcast.map", "shadow-" + UUID.randomUUID())
                .property("tollgate.rules.search.rate", "1/1h")
                .property("tollgate.rules.search.burst", "2")
                .property("tollgate.rules.search.mode", "shadow")
                .start()) {
            for (int i = 0; i < 10; i++) {
                var response = app.get("search?q=" + i);
                assertThat(response.statusCode()).isEqualTo(200);
                assertThat(header(response, "RateLimit")).isNull();
                assertThat(header(response, "Retry-After")).isNull();
            }
            RateLimiter limiter = app.bean(RateLimiter.class);
            Decision first = limiter.tryAcquire("search", "programmatic");
            Decision second = limiter.tryAcquire("search", "programmatic");
            Decision third = limiter.tryAcquire("search", "programmatic");
            assertThat(first.allowed()).isTrue();
            assertThat(first.shadowDenied()).isFalse();
            assertThat(second.shadowDenied()).isFalse();
            assertThat(third.allowed()).isTrue();
            assertThat(third.shadowDenied()).isTrue();
            assertThat(third.retryAfterSeconds()).isEqualTo(3600);
        }
    }
}
