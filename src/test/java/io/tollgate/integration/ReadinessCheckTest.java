package io.tollgate.integration;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.app.SearchResource;
import io.tollgate.testing.TestApp;
import jakarta.enterprise.inject.spi.BeanManager;
import java.util.List;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.junit.jupiter.api.Test;

/**
 * The Jakarta EE stack in one JVM with MicroProfile Health's API: the application's CDI container offers Tollgate's
 * readiness check as a server's health support looks for checks ({@code @Readiness HealthCheck} beans, selected from
 * the container as WildFly's health subsystem does), and leaves it out with {@code tollgate.health=false}.
 */
class ReadinessCheckTest {

    private static TestApp.Builder app() {
        return TestApp.builder().beans(SearchResource.class)
                .property("tollgate.store", "memory")
                .property("tollgate.rules.search.rate", "1/1h")
                .property("tollgate.rules.search.burst", "3");
    }

    private static List<HealthCheckResponse> readiness(TestApp app) {
        return app.bean(BeanManager.class).createInstance().select(HealthCheck.class, Readiness.Literal.INSTANCE)
                .stream().map(HealthCheck::call).toList();
    }

    @Test
    void theCheckIsUpWhileTheStoreAnswers() throws Exception {
        try (TestApp app = app().start()) {
            List<HealthCheckResponse> checks = readiness(app);
            assertThat(checks).hasSize(1);
            HealthCheckResponse check = checks.get(0);
            assertThat(check.getName()).isEqualTo("tollgate");
            assertThat(check.getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
            assertThat(check.getData()).hasValueSatisfying(data -> assertThat(data).containsEntry("store", "memory"));
        }
    }

    @Test
    void theCheckIsLeftOutWhenTurnedOff() throws Exception {
        try (TestApp app = app().property("tollgate.health", "false").start()) {
            assertThat(readiness(app)).isEmpty();
            assertThat(app.get("search?q=1").statusCode()).isEqualTo(200); // limiting goes on
        }
    }
}
