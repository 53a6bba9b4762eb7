package io.tollgate.integration.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.app.ItemsResource;
import io.tollgate.testing.Fuzz;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.RawHttp;
import io.tollgate.testing.RawHttp.Header;
import io.tollgate.testing.SharedCluster;
import io.tollgate.testing.TestApp;
import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Stated costs (a cost header): charged exactly as stated, or refused or defaulted as the README says; never a free token. */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
class StatedCostTest {

    private static final long COST_BURST = 10_000_000;
    private static final int COST_CASES = 1000;

    private final HostileApp app;

    StatedCostTest(HazelcastTestCluster cluster) {
        app = new HostileApp(cluster);
    }

    @AfterEach
    void stop() {
        app.close();
    }

    /**
     * Each generated request is charged exactly what the oracle says (the stated cost, or the default
     * when the header is absent or, with {@code on-invalid-cost=default}, invalid) or refused with a
     * 400 problem that charges nothing. The bucket's {@code remaining} after every allowed request is
     * checked against the oracle's running total, so a single free or negative charge anywhere shows.
     */
    @ParameterizedTest(name = "on-invalid-cost={0}")
    @ValueSource(strings = {"reject", "default"})
    void statedCostsAreChargedExactlyOrRefusedAndNeverMintTokens(String onInvalidCost) throws Exception {
        Random r = Fuzz.random("costs-" + onInvalidCost);
        boolean reject = onInvalidCost.equals("reject");
        app.start(TestApp.builder().beans(ItemsResource.class)
                .property("tollgate.rules.upload.rate", "1/1h")
                .property("tollgate.rules.upload.burst", Long.toString(COST_BURST))
                .property("tollgate.rules.upload.cost", "header:X-Request-Weight")
                .property("tollgate.rules.upload.default-cost", Long.toString(CostValues.DEFAULT_COST))
                .property("tollgate.rules.upload.min-cost", Long.toString(CostValues.MIN_COST))
                .property("tollgate.rules.upload.max-cost", Long.toString(CostValues.MAX_COST))
                .property("tollgate.rules.upload.on-invalid-cost", onInvalidCost));
        long charged = 0;
        int stated = 0;
        int absent = 0;
        int invalid = 0;
        int refused = 0;
        int repeated = 0;
        for (int i = 0; i < COST_CASES; i++) {
            List<byte[]> values = CostValues.costHeaders(r);
            List<Header> headers = new ArrayList<>();
            for (byte[] value : values) {
                headers.add(Header.bytes("X-Request-Weight", value));
            }
            String what = "case " + i + ": " + CostValues.describe(values);
            RawHttp.Response response = app.send("POST", "/items", headers, what);
            long cost = CostValues.statedCost(values);
            repeated += values.size() > 1 ? 1 : 0;
            if (values.isEmpty()) {
                absent++;
                cost = CostValues.DEFAULT_COST;
            } else if (cost >= 0) {
                stated++;
            } else {
                invalid++;
                cost = reject ? -1 : CostValues.DEFAULT_COST;
            }
            if (cost < 0) {
                refused++;
                assertThat(response.status()).as(what + Fuzz.replay()).isEqualTo(400);
                assertThat(response.isProblem()).as(what).isTrue();
                JsonObject problem = response.json();
                assertThat(problem.getString("type")).as(what).isEqualTo("urn:tollgate:problem:invalid-cost");
                assertThat(problem.getInt("status")).isEqualTo(400);
                assertThat(problem.getString("rule")).isEqualTo("upload");
                assertThat(problem.getString("detail")).as(what).startsWith("header:x-request-weight = '");
                assertThat(response.header("RateLimit")).as(what).isNull();
            } else {
                charged += cost;
                assertThat(response.status()).as(what + Fuzz.replay()).isEqualTo(200);
                assertThat(response.remaining()).as(what + ": remaining after " + charged + " charged" + Fuzz.replay())
                        .isEqualTo(COST_BURST - charged);
            }
        }
        RawHttp.Response last = app.send("POST", "/items", List.of(Header.of("X-Request-Weight", "1")), "the last request");
        assertThat(last.remaining()).as("every token accounted for" + Fuzz.replay()).isEqualTo(COST_BURST - charged - 1);
        System.out.printf("hostile costs (on-invalid-cost=%s): %d cases generated: %d stated and valid, %d without the header, "
                + "%d invalid (%d sent several times), %d answered 400; %d tokens charged, %d remaining of %d, exactly as the oracle%n",
                onInvalidCost, COST_CASES, stated, absent, invalid, repeated, refused, charged + 1, last.remaining(), COST_BURST);
    }
}
