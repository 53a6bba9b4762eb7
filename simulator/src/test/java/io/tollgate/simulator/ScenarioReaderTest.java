package io.tollgate.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.tollgate.simulator.traffic.Scenario;
import io.tollgate.simulator.traffic.ScenarioReader;
import org.junit.jupiter.api.Test;

/**
 * A scenario's problems, all at once: the rules' in Tollgate's own words (the lines a deployment
 * would fail with), the traffic model's naming each property and its value.
 */
class ScenarioReaderTest {

    @Test
    void badRulesGetTheMessagesADeploymentGets() {
        InvalidInputException e = invalid("tollgate.rules.search.rate=ten", "tollgate.rules.search.brust=20",
                "client.c.phases=steady 10s 1/s");

        assertThat(e.getMessage()).startsWith("Invalid Tollgate configuration (2 problems):");
        assertThat(e.problems()).containsExactlyInAnyOrder(
                "tollgate.rules.search.rate = 'ten': not a rate; use tokens per second (10, 0.5) or <tokens>/<period> (1000/1h, 5/100ms)",
                "tollgate.rules.search.brust = '20': unknown rule attribute 'brust'; known ones are rate, tokens-per-second, burst, "
                        + "limits, key, on-missing-key, cost, default-cost, min-cost, max-cost, on-invalid-cost, match, exempt, paths, "
                        + "mode, on-store-failure, overrides, limits-from, max-limit, ban-after, ban-for, ban-status, charge-on, refund-on");
    }

    @Test
    void everyTrafficProblemNamesItsPropertyAndValue() {
        InvalidInputException e = invalid(
                "tollgate.rules.api.rate=10",
                "simulation.sead=3",
                "simulation.seed=abc",
                "simulation.rules=api, nope",
                "client.a.phases=steady 10s 5/s, wobble 3s 2/s",
                "client.a.arrivals=bursty",
                "client.a.count=0",
                "client.a.cost=uniform:5..1",
                "client.a.colour=red",
                "client.b.path=/x",
                "client.c.phases=ramp 10s 5/s",
                "client.d.phases=steady 10 5/s",
                "client.e.phases=onoff 1m 5/s 5s",
                "client.f.cost=-2",
                "client.f.phases=steady 1s 1/s",
                "other=1");

        assertThat(e.getMessage()).startsWith("Invalid traffic model (");
        assertThat(e.problems()).containsExactlyInAnyOrder(
                "simulation.sead = '3': unknown property; known ones are simulation.rules, simulation.chart-rule, simulation.seed, simulation.title",
                "simulation.seed = 'abc': not a whole number",
                "simulation.rules = 'api, nope': no rule 'nope'; the rules are api",
                "client.a.phases = 'steady 10s 5/s, wobble 3s 2/s': 'wobble 3s 2/s' is not a phase; use steady <duration> <rate>, burst <duration> <rate>, ramp <duration> <rate>..<rate>, "
                        + "onoff <duration> <rate> <on>/<off> or pause <duration>, e.g. steady 60s 8/s",
                "client.a.arrivals = 'bursty': must be poisson or even",
                "client.a.count = '0': must be between 1 and 100000",
                "client.a.cost = 'uniform:5..1': uniform:5..1: the minimum exceeds the maximum",
                "client.a.colour = 'red': unknown client attribute 'colour'; known ones are phases, arrivals, count, cost, "
                        + "cost-header, cost-query, ip, path, principal, header.<name>, query.<name>, claim.<name>",
                "client.b.phases is not set: client 'b' needs phases; use steady <duration> <rate>, burst <duration> <rate>, "
                        + "ramp <duration> <rate>..<rate>, onoff <duration> <rate> <on>/<off> or pause <duration>, e.g. steady 60s 8/s",
                "client.c.phases = 'ramp 10s 5/s': 'ramp 10s 5/s': a ramp needs <rate>..<rate>, e.g. 1/s..20/s",
                "client.d.phases = 'steady 10 5/s': not a duration; use a number and a unit: 250ms, 90s, 10m, 2h",
                "client.e.phases = 'onoff 1m 5/s 5s': 'onoff 1m 5/s 5s': on/off needs <on>/<off> durations, e.g. 5s/15s",
                "client.f.cost = '-2': a cost is a whole number of at least 0 (fixed, uniform:<min>..<max> or choice:...)",
                "other = '1': unknown property; a scenario has tollgate.*, simulation.* and client.<name>.* properties");
    }

    @Test
    void trafficBeyondTheBoundOfOneRunIsRefusedBeforeItRuns() {
        InvalidInputException e = invalid("tollgate.rules.api.rate=10", "client.flood.phases=steady 30d 1000/s");
        assertThat(e.problems()).containsExactly(
                "client.*.phases = '2592000000 requests': too many for one run (at most 20000000); shorten the phases or lower the rates");
    }

    @Test
    void aScenarioWithoutClientsOrRulesSaysSo() {
        InvalidInputException e = invalid("simulation.title=empty");
        assertThat(e.problems()).containsExactlyInAnyOrder(
                "tollgate.rules.<name>.rate is not set: no rule to apply; define one, e.g. tollgate.rules.api.rate=10",
                "client.<name>.phases is not set: no client sends anything; e.g. client.web.phases=steady 60s 8/s");
    }

    @Test
    void keyResolversCannotBeSimulated() {
        InvalidInputException e = invalid("tollgate.rules.api.rate=10", "tollgate.rules.api.key=resolver:com.example.Tenant",
                "client.c.phases=steady 1s 1/s");
        assertThat(e.problems()).containsExactly("tollgate.rules.api.key = 'resolver:com.example.Tenant': a key resolver is "
                + "application code, which a simulation cannot run; use a key the request carries");
    }

    @Test
    void aGoodScenarioReadsWithRulesInOrderAndClientsInFileOrder() {
        Scenario scenario = ScenarioReader.read(Scenarios.properties(
                "simulation.seed=42", "simulation.rules=b, a", "simulation.title=T",
                "tollgate.rules.a.rate=1", "tollgate.rules.b.rate=2",
                "client.zed.phases=steady 1m 1/s", "client.alpha.phases=pause 10s, burst 5s 20/s", "client.alpha.count=3"));
        assertThat(scenario.seed()).isEqualTo(42);
        assertThat(scenario.applied()).extracting(r -> r.name()).containsExactly("b", "a");
        assertThat(scenario.charted().name()).isEqualTo("b");
        assertThat(scenario.clients()).extracting(c -> c.name()).containsExactly("zed", "alpha");
        assertThat(scenario.clients().get(1).count()).isEqualTo(3);
        assertThat(scenario.durationMicros()).isEqualTo(60_000_000);
        assertThat(scenario.title()).isEqualTo("T");
    }

    private static InvalidInputException invalid(String... lines) {
        InvalidInputException e = catchThrowableOfType(InvalidInputException.class, () -> ScenarioReader.read(Scenarios.properties(lines)));
        assertThat(e).as("the scenario should be refused").isNotNull();
        return e;
    }
}
