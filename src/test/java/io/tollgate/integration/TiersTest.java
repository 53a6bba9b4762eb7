package io.tollgate.integration;

import static io.tollgate.testing.Http.header;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.app.PlansResource;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.SharedCluster;
import io.tollgate.testing.TestApp;
import io.tollgate.testing.Tokens;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Plan tiers: each rule applies only to requests whose verified JWT names its plan. */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
class TiersTest {

    private static TestApp app;

    @BeforeAll
    static void start(HazelcastTestCluster cluster) throws Exception {
        cluster.clock().set(2_300_000_000L * 1_000_000);
        app = TestApp.builder().beans(PlansResource.class).hazelcast(cluster.member(0))
                .property("tollgate.hazelcast.map", "tiers-" + UUID.randomUUID())
                .property("tollgate.rules.free-plan.rate", "1/1h")
                .property("tollgate.rules.free-plan.burst", "2")
                .property("tollgate.rules.free-plan.key", "jwt:sub")
                .property("tollgate.rules.free-plan.match", "jwt:plan=free")
                .property("tollgate.rules.paid-plan.rate", "1/1h")
                .property("tollgate.rules.paid-plan.burst", "5")
                .property("tollgate.rules.paid-plan.key", "jwt:sub")
                .property("tollgate.rules.paid-plan.match", "jwt:plan=paid")
                .start();
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    private int allowedOf(String authorization, int attempts) throws Exception {
        int allowed = 0;
        for (int i = 0; i < attempts; i++) {
            if (app.get("plans", "Authorization", authorization).statusCode() == 200) {
                allowed++;
            }
        }
        return allowed;
    }

    @Test
    void eachPlanGetsItsOwnLimit() throws Exception {
        String free = "Bearer " + Tokens.token("free-user", Map.of("plan", "free"));
        String paid = "Bearer " + Tokens.token("paid-user", Map.of("plan", "paid"));
        String otherFree = "Bearer " + Tokens.token("other-free-user", Map.of("plan", "free"));
        assertThat(header(app.get("plans", "Authorization", paid), "RateLimit-Policy")).isEqualTo("\"paid-plan\";q=1;w=3600");
        assertThat(allowedOf(free, 10)).isEqualTo(2);
        assertThat(allowedOf(paid, 10)).isEqualTo(4);
        assertThat(allowedOf(otherFree, 10)).isEqualTo(2);
    }

    @Test
    void aRequestThatMatchesNoTierIsNotLimitedByThem() throws Exception {
        String enterprise = "Bearer " + Tokens.token("big-user", Map.of("plan", "enterprise"));
        assertThat(allowedOf(enterprise, 10)).isEqualTo(10);
        for (int i = 0; i < 5; i++) {
            var response = app.get("plans");
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(header(response, "RateLimit")).isNull();
        }
    }

    @Test
    void aForgedTokenIsNotAcceptedAsATier() throws Exception {
        String forged = "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4IiwicGxhbiI6InBhaWQifQ.";
        assertThat(app.get("plans", "Authorization", forged).statusCode()).isEqualTo(401);
    }
}
