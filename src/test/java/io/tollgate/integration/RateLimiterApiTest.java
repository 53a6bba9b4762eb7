package io.tollgate.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.Decision;
import io.tollgate.RateLimiter;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.SharedCluster;
import io.tollgate.testing.TestApp;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The injectable {@link RateLimiter}, sync and async, against the Hazelcast store. */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
class RateLimiterApiTest {

    @Test
    void programmaticChecksTakeTokensAndRefuseBadInputWithoutCharging(HazelcastTestCluster cluster) throws Exception {
        cluster.clock().set(2_600_000_000L * 1_000_000);
        try (TestApp app = TestApp.builder().hazelcast(cluster.member(2))
                .property("tollgate.hazelcast.map", "api-" + UUID.randomUUID())
                .property("tollgate.rules.llm.rate", "100")
                .property("tollgate.rules.llm.burst", "1000")
                .start()) {
            RateLimiter limiter = app.bean(RateLimiter.class);
            Decision big = limiter.tryAcquire("llm", "tenant-1", 900);
            assertThat(big.allowed()).isTrue();
            assertThat(big.remaining()).isEqualTo(100);
            assertThat(big.burst()).isEqualTo(1000);
            Decision denied = limiter.tryAcquireAsync("llm", "tenant-1", 101).toCompletableFuture().get(10, TimeUnit.SECONDS);
            assertThat(denied.allowed()).isFalse();
            assertThat(denied.retryAfter()).isEqualTo(Duration.ofMillis(10));
            assertThat(limiter.tryAcquire("llm", "tenant-2", 1000).allowed()).isTrue();

            assertThatThrownBy(() -> limiter.tryAcquire("nope", "k", 1))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("rule = 'nope': no such rule; configured rules are [llm]");
            assertThatThrownBy(() -> limiter.tryAcquire("llm", "tenant-1", 1001))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("cost = 1001: exceeds the burst 1000 of the rule, so it could never be granted");
            assertThatThrownBy(() -> limiter.tryAcquireAsync("llm", "tenant-1", -1))
                    .hasMessage("cost = -1: must not be negative");
            Decision peek = limiter.tryAcquire("llm", "tenant-1", 0);
            assertThat(peek.allowed()).isTrue();
            assertThat(peek.remaining()).isEqualTo(100);
        }
    }
}
