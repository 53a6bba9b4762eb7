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
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Stated costs (a cost header): each attack's requests are charged exactly what the oracle says (the
 * stated cost, or the default when the header is absent or, with {@code on-invalid-cost=default},
 * invalid) or refused with a 400 problem that charges nothing. Between them go valid costs: the
 * bucket's {@code remaining} after every allowed request is checked against the oracle's running
 * total, so a single free or negative charge anywhere shows.
 */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
class StatedCostTest {

    private static final long COST_BURST = 10_000_000;

    private final HostileApp app;

    StatedCostTest(HazelcastTestCluster cluster) {
        app = new HostileApp(cluster);
    }

    @AfterEach
    void stop() {
        app.close();
    }

    @ParameterizedTest(name = "on-invalid-cost={0}")
    @ValueSource(strings = {"reject", "default"})
    void zeroNegativeAndTooLargeCostsAreRefusedOrDefaulted(String onInvalidCost) throws Exception {
        attack(onInvalidCost, "out-of-range", 200, r -> List.of(CostValues.outOfRange(r)));
    }

    @ParameterizedTest(name = "on-invalid-cost={0}")
    @ValueSource(strings = {"reject", "default"})
    void fractionsExponentsHexAndInfinitiesAreRefusedOrDefaulted(String onInvalidCost) throws Exception {
        attack(onInvalidCost, "other-notation", 200, r -> List.of(CostValues.otherNotation(r)));
    }

    @ParameterizedTest(name = "on-invalid-cost={0}")
    @ValueSource(strings = {"reject", "default"})
    void foreignDigitsControlCharactersAndRawBytesAreRefusedOrDefaulted(String onInvalidCost) throws Exception {
        attack(onInvalidCost, "not-digits", 250, r -> List.of(CostValues.notDigits(r)));
    }

    @ParameterizedTest(name = "on-invalid-cost={0}")
    @ValueSource(strings = {"reject", "default"})
    void paddedCostsAndLeadingZerosAreChargedExactly(String onInvalidCost) throws Exception {
        attack(onInvalidCost, "valid", 100, r -> List.of(CostValues.valid(r)));
    }

    @ParameterizedTest(name = "on-invalid-cost={0}")
    @ValueSource(strings = {"reject", "default"})
    void aCostSentSeveralTimesIsRefusedOrDefaultedEvenIfEveryValueIsValid(String onInvalidCost) throws Exception {
        attack(onInvalidCost, "repeated", 150, CostValues::repeated);
    }

    @ParameterizedTest(name = "on-invalid-cost={0}")
    @ValueSource(strings = {"reject", "default"})
    void aRequestWithoutTheCostHeaderIsChargedTheDefault(String onInvalidCost) throws Exception {
        attack(onInvalidCost, "absent", 100, r -> List.of());
    }

    /**
     * Sends {@code cases} requests, a third of them with a valid cost and the others with the cost
     * header values the attack makes, and checks each answer and the tokens left against the oracle.
     */
    private void attack(String onInvalidCost, String attack, int cases, Function<Random, List<byte[]>> values) throws Exception {
        Random r = Fuzz.random("costs-" + attack + "-" + onInvalidCost);
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
        for (int i = 0; i < cases; i++) {
            List<byte[]> sent = r.nextInt(3) == 0 ? List.of(CostValues.valid(r)) : values.apply(r);
            List<Header> headers = new ArrayList<>();
            for (byte[] value : sent) {
                headers.add(Header.bytes("X-Request-Weight", value));
            }
            String what = attack + " case " + i + ": " + CostValues.describe(sent);
            RawHttp.Response response = app.send("POST", "/items", headers, what);
            long cost = CostValues.statedCost(sent);
            repeated += sent.size() > 1 ? 1 : 0;
            if (sent.isEmpty()) {
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
        System.out.printf("hostile costs, %s (on-invalid-cost=%s): %d cases generated: %d stated and valid, %d without the header, "
                + "%d invalid (%d sent several times), %d answered 400; %d tokens charged, %d remaining of %d, exactly as the oracle%n",
                attack, onInvalidCost, cases, stated, absent, invalid, repeated, refused, charged + 1, last.remaining(), COST_BURST);
    }
}
