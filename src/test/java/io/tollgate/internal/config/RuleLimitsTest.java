package io.tollgate.internal.config;

import static io.tollgate.internal.config.ConfigTesting.RATE_HELP;
import static io.tollgate.internal.config.ConfigTesting.RULE;
import static io.tollgate.internal.config.ConfigTesting.problems;
import static io.tollgate.internal.config.ConfigTesting.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.internal.core.Limit;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A rule's limits: every rate syntax, bursts, several limits, and each bad value with its problem line.
 */
class RuleLimitsTest {

    @ParameterizedTest(name = "rate {0} is {1}")
    @CsvSource(delimiter = '|', value = {
        "10        | 10/1s burst 10",
        "0.5       | 1/2s burst 1",
        "2.5       | 5/2s burst 3",
        "0.1       | 1/10s burst 1",
        "1000/1h   | 1000/1h burst 1000",
        "5/100ms   | 5/100ms burst 5",
        "100/m     | 100/1m burst 100",
        "10/s      | 10/1s burst 10",
        "3/min     | 3/1m burst 3",
        "60/2 sec  | 60/2s burst 60",
        "7/500us   | 7/500us burst 7",
        "1/1d      | 1/1d burst 1",
        "' 12 / 3 S ' | 12/3s burst 12",
    })
    void readsEveryRateSyntaxWithItsDefaultBurst(String rate, String limit) {
        assertThat(read(RULE + "rate", rate).rule("search").limits()).singleElement().hasToString(limit);
    }

    @Test
    void ratesMeanExactlyTheLimitTheySay() {
        assertThat(read(RULE + "rate", "1000/1h").rule("search").limits())
                .containsExactly(Limit.of(1000, 1000, Duration.ofHours(1)));
        assertThat(read(RULE + "rate", "5/100ms").rule("search").limits())
                .containsExactly(Limit.of(5, 5, Duration.ofMillis(100)));
        assertThat(read(RULE + "rate", "0.5").rule("search").limits())
                .containsExactly(Limit.of(1, 1, Duration.ofSeconds(2)));
        assertThat(read(RULE + "rate", "100/m").rule("search").limits())
                .containsExactly(Limit.of(100, 100, Duration.ofMinutes(1)));
    }

    @Test
    void anExplicitBurstReplacesTheDefaultOne() {
        assertThat(read(RULE + "rate", "0.5", RULE + "burst", "5").rule("search").limits())
                .containsExactly(Limit.of(5, 1, Duration.ofSeconds(2)));
        assertThat(read(RULE + "rate", "1000/1h", RULE + "burst", " 50 ").rule("search").limits())
                .containsExactly(Limit.of(50, 1000, Duration.ofHours(1)));
    }

    @Test
    void tokensPerSecondIsAnAliasOfRate() {
        TollgateConfig config = read(RULE + "tokens-per-second", "4", RULE + "burst", "8");
        assertThat(config.rule("search").limits()).containsExactly(Limit.of(8, 4, Duration.ofSeconds(1)));
    }

    @Test
    void limitsHoldSeveralLimitsEachWithItsOwnBurst() {
        RuleConfig rule = read(RULE + "limits", "10/s burst 20, 1000/1h").rule("search");
        assertThat(rule.limits()).containsExactly(Limit.of(20, 10, Duration.ofSeconds(1)),
                Limit.of(1000, 1000, Duration.ofHours(1)));
        assertThat(rule.bucket().limitCount()).isEqualTo(2);
        assertThat(rule.cost().maxCost()).isEqualTo(20); // the smallest burst
    }

    @Test
    void limitsItemsMayUseEveryRateSyntax() {
        assertThat(read(RULE + "limits", "0.5 burst 3,5/100ms,  100/m burst 150 ").rule("search").limits())
                .containsExactly(Limit.of(3, 1, Duration.ofSeconds(2)), Limit.of(5, 5, Duration.ofMillis(100)),
                        Limit.of(150, 100, Duration.ofMinutes(1)));
    }

    @Test
    void refusesMoreLimitsThanARuleMayHave() {
        String seventeen = String.join(", ", java.util.Collections.nCopies(17, "1/s"));
        assertThat(problems(RULE + "limits", seventeen)).containsExactly(
                "tollgate.rules.search.limits = '" + seventeen + "': 17 limits; a rule has at most 16");
        assertThat(read(RULE + "limits", String.join(", ", java.util.Collections.nCopies(16, "1/s"))).rule("search").limits())
                .hasSize(16);
    }

    @ParameterizedTest(name = "rate {0}")
    @CsvSource(delimiter = '|', value = {
        "abc               | not a rate; " + RATE_HELP,
        "-1                | not a rate; " + RATE_HELP,
        "1.5/s             | not a rate; " + RATE_HELP,
        "10 per second     | not a rate; " + RATE_HELP,
        "0                 | must be greater than 0",
        "0/s               | must be greater than 0",
        "10/0s             | must be positive",
        "10/x              | unknown time unit 'x'; use us, ms, s, m, h or d",
        "1/3651d           | must be at most 3650 days",
        "0.0000000000001   | must have at most 12 decimal places",
        "0.000000001       | is too slow: must be at least 1 token per 3650 days",
    })
    void refusesABadRate(String rate, String reason) {
        assertThat(problems(RULE + "rate", rate)).containsExactly(
                "tollgate.rules.search.rate = '" + rate + "': " + reason);
    }

    @Test
    void refusesABadRateUnderTheNameItWasGiven() {
        assertThat(problems(RULE + "tokens-per-second", "fast")).containsExactly(
                "tollgate.rules.search.tokens-per-second = 'fast': not a rate; " + RATE_HELP);
    }

    @Test
    void refusesAnAnnotationRateUnderTheRuleRateProperty() {
        RuleDefaults reports = new RuleDefaults("reports").merge("app.ReportsResource.run", "lots", 0, "", "");
        assertThat(problems(List.of(reports))).containsExactly(
                "tollgate.rules.reports.rate = 'lots': not a rate; " + RATE_HELP);
    }

    @ParameterizedTest(name = "burst {0}")
    @CsvSource(delimiter = '|', value = {
        "0     | must be at least 1",
        "-1    | must be at least 1",
        "abc   | not a whole number",
        "2.5   | not a whole number",
    })
    void refusesABadBurst(String burst, String reason) {
        assertThat(problems(RULE + "rate", "10", RULE + "burst", burst)).containsExactly(
                "tollgate.rules.search.burst = '" + burst + "': " + reason);
    }

    @Test
    void refusesABurstTooLargeForItsRate() {
        assertThat(problems(RULE + "rate", "1/3650d", RULE + "burst", "100000")).containsExactly(
                "tollgate.rules.search.burst = '100000': too large for a refill of 1/3650d (burst x period / rate exceeds 2^61)");
    }

    @Test
    void refusesANegativeBurstFromAnAnnotation() {
        RuleDefaults search = new RuleDefaults("search").merge("app.SearchResource.find", "10", -3, "", "");
        assertThat(problems(List.of(search))).containsExactly(
                "tollgate.rules.search.burst = '-3': must be at least 1 (from the annotation (used by app.SearchResource.find))");
    }

    @Test
    void refusesLimitsTogetherWithRateOrBurst() {
        assertThat(problems(RULE + "limits", "10/s", RULE + "rate", "10")).containsExactly(
                "tollgate.rules.search.limits = '10/s': set either limits or rate/burst, not both");
        assertThat(problems(RULE + "limits", "10/s", RULE + "burst", "3")).containsExactly(
                "tollgate.rules.search.limits = '10/s': set either limits or rate/burst, not both");
        assertThat(problems(RULE + "limits", "10/s", RULE + "tokens-per-second", "3")).containsExactly(
                "tollgate.rules.search.limits = '10/s': set either limits or rate/burst, not both");
    }

    @Test
    void refusesEveryBadLimitItemAtOnce() {
        String limits = "10/s burst 0, abc, 0/s, 10/s burst x, 10/s burst, 1/3651d, 5/100ms";
        String prefix = "tollgate.rules.search.limits = '" + limits + "': ";
        assertThat(problems(RULE + "limits", limits)).containsExactly(
                prefix + "'10/s burst 0': burst 0 must be at least 1",
                prefix + "'abc': not a rate; " + RATE_HELP,
                prefix + "'0/s': rate must be greater than 0",
                prefix + "'10/s burst x': burst 'x' is not a whole number",
                prefix + "'10/s burst': not a rate; " + RATE_HELP,
                prefix + "'1/3651d': period must be at most 3650 days");
    }

    @Test
    void refusesEmptyLimits() {
        assertThat(problems(RULE + "limits", " ")).containsExactly(
                "tollgate.rules.search.limits = ' ': empty; give one or more <rate> [burst <n>], comma-separated");
    }

    /** BUG: as above, for the period of a rate. */
    @Test
    void refusesARatePeriodTooLargeForADurationAsAProblemLine() {
        assertThatThrownBy(() -> read(RULE + "rate", "1/9999999999999999d"))
                .isInstanceOf(InvalidConfigurationException.class)
                .satisfies(e -> assertThat(((InvalidConfigurationException) e).problems()).singleElement()
                        .satisfies(line -> assertThat(line).startsWith("tollgate.rules.search.rate = '1/9999999999999999d': ")));
    }
}
