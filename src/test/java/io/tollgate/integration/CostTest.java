package io.tollgate.integration;

import static io.tollgate.testing.Http.json;
import static io.tollgate.testing.Http.remaining;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.app.ItemsResource;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.SharedCluster;
import io.tollgate.testing.TestApp;
import jakarta.json.JsonObject;
import java.net.http.HttpResponse;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Costs stated by the client: charged exactly, bad values refused (400) or defaulted, never a free pass. */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
class CostTest {

    private final HazelcastTestCluster cluster;
    private TestApp app;

    CostTest(HazelcastTestCluster cluster) {
        this.cluster = cluster;
        cluster.clock().set(2_200_000_000L * 1_000_000);
    }

    @AfterEach
    void stop() {
        if (app != null) {
            app.close();
        }
    }

    private void start(String onInvalidCost) throws Exception {
        TestApp.Builder builder = TestApp.builder().beans(ItemsResource.class).hazelcast(cluster.member(2))
                .property("tollgate.hazelcast.map", "cost-" + UUID.randomUUID())
                .property("tollgate.rules.upload.rate", "1/1h")
                .property("tollgate.rules.upload.burst", "100")
                .property("tollgate.rules.upload.cost", "header:X-Request-Weight")
                .property("tollgate.rules.upload.default-cost", "2")
                .property("tollgate.rules.upload.max-cost", "50");
        if (onInvalidCost != null) {
            builder.property("tollgate.rules.upload.on-invalid-cost", onInvalidCost);
        }
        app = builder.start();
    }

    private HttpResponse<String> upload(String... weights) throws Exception {
        String[] headers = new String[weights.length * 2];
        for (int i = 0; i < weights.length; i++) {
            headers[2 * i] = "X-Request-Weight";
            headers[2 * i + 1] = weights[i];
        }
        return app.post("items", headers);
    }

    @Test
    void chargesTheStatedCostOrTheDefault() throws Exception {
        start(null);
        assertThat(remaining(upload("30"))).isEqualTo(70);
        assertThat(remaining(upload())).isEqualTo(68); // absent: default-cost 2
        assertThat(remaining(upload("0050"))).isEqualTo(18);
        HttpResponse<String> tooExpensive = upload("19");
        assertThat(tooExpensive.statusCode()).isEqualTo(429);
        assertThat(json(tooExpensive).getInt("remaining")).isEqualTo(18);
        assertThat(remaining(upload("18"))).isZero();
    }

    @Test
    void refusesBadCostsWithABadRequestAndChargesNothing() throws Exception {
        start(null);
        String[][] cases = {
            {"-5", "must not be negative"},
            {"0", "must be at least 1"},
            {"NaN", "not a number; send a whole number from 1 to 50"},
            {"1.5", "must be a whole number"},
            {"1e3", "must be a whole number"},
            {"51", "exceeds max-cost 50"},
            {"99999999999999999999999", "exceeds max-cost 50"},
            {"abc", "not a number; send a whole number from 1 to 50"},
            {"0x10", "not a number; send a whole number from 1 to 50"},
            {"+5", "must be a whole number"},
        };
        for (String[] c : cases) {
            HttpResponse<String> response = upload(c[0]);
            assertThat(response.statusCode()).as(c[0]).isEqualTo(400);
            JsonObject problem = json(response);
            assertThat(problem.getString("type")).isEqualTo("urn:tollgate:problem:invalid-cost");
            assertThat(problem.getInt("status")).isEqualTo(400);
            assertThat(problem.getString("rule")).isEqualTo("upload");
            assertThat(problem.getString("detail")).as(c[0]).isEqualTo("header:x-request-weight = '" + c[0] + "': " + c[1]);
        }
        HttpResponse<String> repeated = upload("1", "40");
        assertThat(repeated.statusCode()).isEqualTo(400);
        assertThat(json(repeated).getString("detail")).isEqualTo("header:x-request-weight = '1': sent 2 times; send it once");
        // not one token went anywhere
        assertThat(remaining(upload("1"))).isEqualTo(99);
    }

    @Test
    void canChargeTheDefaultCostForBadValuesInstead() throws Exception {
        start("default");
        assertThat(remaining(upload("-5"))).isEqualTo(98);
        assertThat(remaining(upload("NaN"))).isEqualTo(96);
        assertThat(remaining(upload("1000"))).isEqualTo(94);
        assertThat(remaining(upload("7"))).isEqualTo(87);
    }
}
