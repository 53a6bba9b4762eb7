package io.tollgate.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.simulator.report.Result;
import io.tollgate.simulator.report.RowStats;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Deterministic traffic (evenly spaced arrivals) whose counts follow from the rule alone. A client
 * that always asks for more than the rate gets {@code floor(burst + rate × t)} by its last request at
 * {@code t}: the bucket never fills again after the first request, and what is left at the end is less
 * than one request's cost (else that request would have been granted).
 */
class ExactCountsTest {

    @Test
    void aSaturatingClientGetsBurstPlusRateTimesTime() {
        // 50/s for 10 s: last request at 9.98 s; 20 + 10 x 9.98 = 119.8 -> 119 of 500
        RowStats row = only(Scenarios.run("tollgate.rules.r.rate=10", "tollgate.rules.r.burst=20", "tollgate.rules.r.key=ip",
                "client.c.phases=steady 10s 50/s", "client.c.arrivals=even"));
        assertThat(row.requests()).isEqualTo(500);
        assertThat(row.allowed()).isEqualTo(119);
        assertThat(row.denied()).isEqualTo(381);
    }

    @Test
    void aSlowRateAndAFastClient() {
        // 1 per second, burst 5; 4/s for 60 s: last request at 59.75 s; 5 + 59.75 = 64.75 -> 64 of 240
        RowStats row = only(Scenarios.run("tollgate.rules.r.rate=60/1m", "tollgate.rules.r.burst=5", "tollgate.rules.r.key=ip",
                "client.c.phases=steady 60s 4/s", "client.c.arrivals=even"));
        assertThat(row.requests()).isEqualTo(240);
        assertThat(row.allowed()).isEqualTo(64);
    }

    @Test
    void costsAreChargedWhole() {
        // rate 10 cost/s, burst 10, each request costs 3, 10 requests a second for 5 s: 50 requests, the last at 4.9 s;
        // granted cost <= 10 + 10 x 4.9 = 59, in whole requests of 3: floor(59 / 3) = 19 requests (57 tokens)
        RowStats row = only(Scenarios.run("tollgate.rules.r.rate=10", "tollgate.rules.r.burst=10", "tollgate.rules.r.key=ip",
                "tollgate.rules.r.cost=header:X-Cost", "client.c.phases=steady 5s 10/s", "client.c.arrivals=even",
                "client.c.cost=3", "client.c.cost-header=X-Cost"));
        assertThat(row.allowed()).isEqualTo(19);
        assertThat(row.costAllowed()).isEqualTo(57);
    }

    @Test
    void underTheRateNothingIsDenied() {
        RowStats row = only(Scenarios.run("tollgate.rules.r.rate=2", "tollgate.rules.r.burst=1", "tollgate.rules.r.key=ip",
                "client.c.phases=steady 60s 1/s", "client.c.arrivals=even"));
        assertThat(row.requests()).isEqualTo(60);
        assertThat(row.allowed()).isEqualTo(60);
        assertThat(row.longestStreak()).isZero();
        assertThat(row.maxRetryAfter()).isZero();
    }

    @Test
    void theBatchScenarioOfTheGuideCountsAsWorkedOut() throws Exception {
        // 40 requests in 1 s (25 ms apart) every 30 s, 4 batches. Burst 50, 5/s: the bucket holds 50 > 40: all pass.
        // Burst 5: each batch gets floor(5 + 5 x 0.975) = 9 (the bucket is full again 30 s later): 36 pass, 124 denied.
        // After the first five, one token comes every 200 ms while 8 requests arrive: 7 denied in a row between grants.
        Map<String, String> scenario = TuningGuide.scenario("batch");
        RowStats good = row(Scenarios.run(scenario), "export");
        scenario.put("tollgate.rules.jobs.burst", "5");
        RowStats bad = row(Scenarios.run(scenario), "export");
        assertThat(good.requests()).isEqualTo(160);
        assertThat(good.denied()).isZero();
        assertThat(bad.allowed()).isEqualTo(36);
        assertThat(bad.denied()).isEqualTo(124);
        assertThat(bad.longestStreak()).isEqualTo(7);
    }

    @Test
    void aRunIsTheSameForTheSameSeedAndDiffersForAnother() throws Exception {
        Map<String, String> scenario = TuningGuide.scenario("interactive");
        Result first = Scenarios.run(scenario);
        Result again = Scenarios.run(scenario);
        assertThat(io.tollgate.simulator.report.MarkdownTable.of(again)).isEqualTo(io.tollgate.simulator.report.MarkdownTable.of(first));
        for (int i = 0; i < first.lanes().size(); i++) {
            assertThat(again.lanes().get(i).times()).isEqualTo(first.lanes().get(i).times());
            assertThat(again.lanes().get(i).outcomes()).isEqualTo(first.lanes().get(i).outcomes());
        }
        scenario.put("simulation.seed", "7");
        Result other = Scenarios.run(scenario);
        assertThat(other.lanes().get(0).times()).isNotEqualTo(first.lanes().get(0).times());
    }

    private static RowStats only(Result result) {
        assertThat(result.rows()).hasSize(1);
        return result.rows().get(0);
    }

    private static RowStats row(Result result, String name) {
        return TuningGuide.row(result, name);
    }
}
