package io.tollgate.internal.config;

import static io.tollgate.internal.config.ConfigTesting.KEY_HELP;
import static io.tollgate.internal.config.ConfigTesting.RATE_HELP;
import static io.tollgate.internal.config.ConfigTesting.RULE;
import static io.tollgate.internal.config.ConfigTesting.problems;
import static io.tollgate.internal.config.ConfigTesting.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.junit.jupiter.api.Test;

/**
 * How problems are reported: every one of every rule and property in one exception, each a line with
 * its property and value, and a hint when a value looks like it carries an end-of-line comment.
 */
class ProblemReportTest {

    @Test
    void reportsEveryProblemOfEveryRuleAndGlobalPropertyInOneException() {
        InvalidConfigurationException e = catchThrowableOfType(InvalidConfigurationException.class, () -> read(
                "tollgate.rules.search.rate", "abc",
                "tollgate.rules.search.brust", "20",
                "tollgate.rules.search.key", "cookie:x",
                "tollgate.rules.reports.rate", "10",
                "tollgate.rules.reports.max-cost", "50",
                "tollgate.rules", "orphan",
                "tollgate.headers", "fancy",
                "tollgate.trusted-proxies", "example.com",
                "tollgate.store.timeout", "0s",
                "tollgate.hazelcast.backup-count", "7"));

        assertThat(e.problems()).containsExactlyInAnyOrder(
                "tollgate.rules.search.brust = '20': unknown rule attribute 'brust'; known ones are rate, tokens-per-second, "
                        + "burst, limits, key, on-missing-key, cost, default-cost, min-cost, max-cost, on-invalid-cost, match, "
                        + "exempt, paths, mode, on-store-failure, overrides, limits-from, max-limit, ban-after, ban-for, ban-status, charge-on, refund-on",
                "tollgate.rules.search.rate = 'abc': not a rate; " + RATE_HELP,
                "tollgate.rules.search.key = 'cookie:x': 'cookie:x'" + KEY_HELP,
                "tollgate.rules.reports.max-cost = '50': exceeds the burst 10, so such a cost could never be granted",
                "tollgate.rules.orphan.rate is not set: rule 'orphan' needs a rate (or limits); " + RATE_HELP,
                "tollgate.headers = 'fancy': must be one of ietf, legacy, x-ratelimit, none",
                "tollgate.trusted-proxies = 'example.com': 'example.com' is not an IP address or CIDR range",
                "tollgate.store.timeout = '0s': must be more than 0 and at most 60s",
                "tollgate.hazelcast.backup-count = '7': must be between 1 and 6");
        assertThat(e).hasMessage("Invalid Tollgate configuration (9 problems):\n  " + String.join("\n  ", e.problems()));
    }

    @Test
    void aSingleProblemIsCountedInTheSingular() {
        assertThatThrownBy(() -> read("tollgate.store", "redis"))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessage("Invalid Tollgate configuration (1 problem):\n"
                        + "  tollgate.store = 'redis': must be one of hazelcast, memory");
    }

    @Test
    void theProblemListCannotBeChanged() {
        InvalidConfigurationException e = catchThrowableOfType(InvalidConfigurationException.class,
                () -> read("tollgate.store", "redis"));
        assertThatThrownBy(() -> e.problems().add("more")).isInstanceOf(UnsupportedOperationException.class);
    }

    /** The Quick start once wrote its comments at the ends of lines; a properties file keeps them in the value. */
    @Test
    void aValueThatLooksLikeItCarriesAnEndOfLineCommentIsRefusedSayingSo() {
        String hint = "; a properties file has no end-of-line comments, so '%s' is part of the value: put the comment on a line of its own";
        assertThat(problems(RULE + "rate", "10        # 10 tokens per second")).containsExactly(
                "tollgate.rules.search.rate = '10        # 10 tokens per second': not a rate; " + RATE_HELP
                        + String.format(hint, "# 10 tokens per second"));
        assertThat(problems(RULE + "rate", "10", RULE + "burst", "20       # bucket capacity",
                "tollgate.store.timeout", "1s ! one second", "tollgate.hazelcast.port", "5701\t# the first port")).containsExactly(
                "tollgate.rules.search.burst = '20       # bucket capacity': not a whole number"
                        + String.format(hint, "# bucket capacity"),
                "tollgate.store.timeout = '1s ! one second': not a duration; use e.g. 250ms, 2s or PT0.25S"
                        + String.format(hint, "! one second"),
                "tollgate.hazelcast.port = '5701\t# the first port': not a whole number" + String.format(hint, "# the first port"));
        assertThat(problems(RULE + "limits", "10/s burst 20, 1000/1h # per hour")).singleElement().asString()
                .endsWith(String.format(hint, "# per hour"));
        // without a space before it, '#' is not read as a comment: no hint
        assertThat(problems(RULE + "rate", "10#per-second")).containsExactly(
                "tollgate.rules.search.rate = '10#per-second': not a rate; " + RATE_HELP);
    }
}
