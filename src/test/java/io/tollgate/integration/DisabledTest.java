package io.tollgate.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.tollgate.BucketStatus;
import io.tollgate.Decision;
import io.tollgate.RateLimitAdmin;
import io.tollgate.RateLimiter;
import io.tollgate.app.ReportService;
import io.tollgate.app.SearchResource;
import io.tollgate.testing.TestApp;
import jakarta.enterprise.inject.spi.BeanManager;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Set;
import java.util.stream.Collectors;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.Readiness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * {@code tollgate.enabled=false}: the configuration is still read and checked, but nothing is started and every call
 * passes, uncharged and without headers; the programmatic API answers as for buckets never charged.
 */
@Isolated // counts the JVM's Hazelcast instances
class DisabledTest {

    private static TestApp.Builder app() {
        return TestApp.builder().beans(SearchResource.class, ReportService.class)
                .property("tollgate.enabled", "false")
                .property("tollgate.rules.search.rate", "1/1h")
                .property("tollgate.rules.search.burst", "2")
                .property("tollgate.rules.search.key", "header:X-Api-Key")
                .property("tollgate.rules.reports.rate", "1/1h")
                .property("tollgate.rules.reports.burst", "1")
                .property("tollgate.rules.llm.rate", "1/1h")
                .property("tollgate.rules.llm.burst", "1")
                .property("tollgate.admin.enabled", "true")
                .property("tollgate.admin.role", "tollgate-admin");
    }

    private static Set<String> hazelcastInstances() {
        Set<String> names = Hazelcast.getAllHazelcastInstances().stream().map(HazelcastInstance::getName).collect(Collectors.toSet());
        HazelcastClient.getAllHazelcastClients().forEach(client -> names.add(client.getName()));
        return names;
    }

    @Test
    void everyRequestPassesWithoutHeadersAndNoHazelcastIsStarted() throws Exception {
        Set<String> before = hazelcastInstances();
        try (TestApp app = app().start()) {
            for (int i = 0; i < 5; i++) {
                HttpResponse<String> answer = app.get("search?q=" + i, "X-Api-Key", "k");
                assertThat(answer.statusCode()).as("request " + (i + 1) + " of a burst of 2").isEqualTo(200);
                assertThat(answer.headers().map().keySet()).as("no rate-limit header")
                        .noneMatch(name -> name.toLowerCase().contains("ratelimit") || name.equalsIgnoreCase("Retry-After"));
            }
            ReportService reports = app.bean(ReportService.class);
            for (int i = 0; i < 3; i++) {
                assertThat(reports.generate("acme")).as("the interceptor passes every call").isEqualTo("report for acme");
            }
            assertThat(hazelcastInstances()).as("no Hazelcast member or client").isEqualTo(before);
            assertThat(app.bean(BeanManager.class).createInstance().select(HealthCheck.class, Readiness.Literal.INSTANCE).stream())
                    .as("no readiness check").isEmpty();
        }
    }

    @Test
    void anInjectedRateLimiterAnswersAllowedAndChargesNothing() throws Exception {
        try (TestApp app = app().start()) {
            RateLimiter limiter = app.bean(RateLimiter.class);
            for (int i = 0; i < 4; i++) {
                Decision decision = limiter.tryAcquire("search", "k", 2);
                assertThat(decision).isEqualTo(Decision.builder("search").allowed(true).cost(2).remaining(2).burst(2, 0).build());
            }
            assertThat(limiter.acquire("search", "k", 1, Duration.ofSeconds(1)).allowed()).isTrue();
            assertThat(limiter.tryAcquireAsync("search", "k", 1).toCompletableFuture().join().allowed()).isTrue();
            assertThat(limiter.refund("search", "k", 1)).isTrue();
            assertThatThrownBy(() -> limiter.tryAcquire("nope", "k", 1)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("rule = 'nope'");
            assertThatThrownBy(() -> limiter.tryAcquire("search", "k", 3)).as("a cost above the burst, as when enabled")
                    .isInstanceOf(IllegalArgumentException.class);

            RateLimitAdmin admin = app.bean(RateLimitAdmin.class);
            BucketStatus status = admin.inspect("search", "k");
            assertThat(status.found()).isFalse();
            assertThat(status.full()).isTrue();
            assertThat(status.banned()).isFalse();
            assertThat(admin.reset("search", "k").found()).isFalse();
            assertThat(admin.bans("search")).isEmpty();
            assertThat(admin.liftBan("search", "k")).isFalse();
            assertThat(admin.topDenied("search", 5)).isEmpty();
            assertThat(admin.rules()).extracting(rule -> rule.name()).containsExactly("llm", "reports", "search");

            assertThat(app.get("tollgate/admin/rules", "X-Test-User", "ops", "X-Test-Roles", "tollgate-admin").statusCode())
                    .as("no admin resource").isEqualTo(404);
        }
    }

    @Test
    void anInvalidValueOrAnInvalidConfigurationStillFailsTheDeployment() {
        assertThatThrownBy(() -> app().property("tollgate.enabled", "off").start().close())
                .hasMessageContaining("tollgate.enabled = 'off'");
        assertThatThrownBy(() -> app().property("tollgate.rules.search.burst", "many").start().close())
                .hasMessageContaining("tollgate.rules.search.burst = 'many'");
    }
}
