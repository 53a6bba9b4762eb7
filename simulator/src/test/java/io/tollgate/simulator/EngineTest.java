package io.tollgate.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.simulator.report.Lane;
import io.tollgate.simulator.report.MarkdownTable;
import io.tollgate.simulator.report.Result;
import io.tollgate.simulator.report.RowStats;
import org.junit.jupiter.api.Test;

/** The parts of a rule a simulation must honour as a deployment does: shadow mode, paths, match, bad costs, Retry-After. */
class EngineTest {

    @Test
    void aShadowRuleLetsEverythingThroughAndCountsWhatItWouldHaveDenied() {
        // 20/s for 1 s against burst 5, 1/s: 5 + floor(0.95) = 5 would pass, 15 would be denied
        Result result = Scenarios.run("tollgate.rules.r.rate=1", "tollgate.rules.r.burst=5", "tollgate.rules.r.mode=shadow",
                "client.c.phases=steady 1s 20/s", "client.c.arrivals=even");
        RowStats row = result.rows().get(0);
        assertThat(row.allowed()).isEqualTo(20);
        assertThat(row.denied()).isZero();
        assertThat(row.shadowDenied()).isEqualTo(15);
        assertThat(result.shadow()).isTrue();
        assertThat(MarkdownTable.of(result)).contains("| Would be denied (shadow) |", "| c | 20 | 20 | 0 | 15 (75.0 %) | 15 |");
        assertThat(result.lanes().get(0).outcomes()).containsOnly(Lane.ALLOWED, Lane.LIMITED);
    }

    @Test
    void pathRulesApplyOnlyToTheirPathsAndMatchToMatchingRequests() {
        Result result = Scenarios.run(
                "simulation.rules=free",
                "tollgate.rules.free.rate=1", "tollgate.rules.free.burst=2", "tollgate.rules.free.key=header:X-Key",
                "tollgate.rules.free.match=header:X-Plan=free",
                "tollgate.rules.items.rate=1", "tollgate.rules.items.burst=3", "tollgate.rules.items.paths=/items/*",
                "client.free.phases=steady 1s 10/s", "client.free.arrivals=even", "client.free.header.X-Plan=free",
                "client.free.header.X-Key=f",
                "client.paid.phases=steady 1s 10/s", "client.paid.arrivals=even", "client.paid.header.X-Plan=paid",
                "client.paid.header.X-Key=p",
                "client.items.phases=steady 1s 10/s", "client.items.arrivals=even", "client.items.path=/items/{n}",
                "client.items.header.X-Plan=paid");
        assertThat(TuningGuide.row(result, "free").allowed()).isEqualTo(2);  // burst 2, 0.9 s of 1/s: 2
        assertThat(TuningGuide.row(result, "paid").allowed()).isEqualTo(10); // no rule matches
        assertThat(TuningGuide.row(result, "items").allowed()).isEqualTo(3); // the path rule, burst 3
    }

    @Test
    void aCostTheRuleRefusesIsABadRequestAndChargesNothing() {
        // max-cost 5: a stated cost of 9 is a 400; the cost-1 client keeps the whole burst for itself
        Result result = Scenarios.run("tollgate.rules.r.rate=1", "tollgate.rules.r.burst=5", "tollgate.rules.r.key=global",
                "tollgate.rules.r.cost=header:X-Cost",
                "client.big.phases=steady 1s 10/s", "client.big.arrivals=even", "client.big.cost=9", "client.big.cost-header=X-Cost",
                "client.small.phases=pause 500ms, steady 500ms 10/s", "client.small.arrivals=even");
        assertThat(TuningGuide.row(result, "big").badCost()).isEqualTo(10);
        assertThat(TuningGuide.row(result, "big").allowed()).isZero();
        assertThat(TuningGuide.row(result, "small").allowed()).isEqualTo(5);
        assertThat(MarkdownTable.of(result)).contains("| Bad cost (400) |");
    }

    @Test
    void retryAfterCarriesTheJitterADeploymentSends() {
        // a 1 s wait stretched by up to 50 % per client, rounded up: 1 or 2 s, the same for a client every time
        Result result = Scenarios.run("tollgate.rules.r.rate=1/10s", "tollgate.rules.r.burst=1",
                "client.c.phases=steady 2s 10/s", "client.c.arrivals=even", "client.c.count=20");
        for (RowStats row : result.rows()) {
            assertThat(row.maxRetryAfter()).isBetween(10L, 15L);
        }
        Result noJitter = Scenarios.run("tollgate.retry-after.jitter=0", "tollgate.rules.r.rate=1/10s", "tollgate.rules.r.burst=1",
                "client.c.phases=steady 2s 10/s", "client.c.arrivals=even");
        assertThat(noJitter.rows().get(0).maxRetryAfter()).isEqualTo(10);
    }
}
