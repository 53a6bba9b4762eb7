package io.tollgate.internal.config;

import static io.tollgate.internal.config.ConfigTesting.RULE;
import static io.tollgate.internal.config.ConfigTesting.problems;
import static io.tollgate.internal.config.ConfigTesting.read;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.internal.core.Limit;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A rule's ban attributes (ban-after, ban-for, ban-status): what they resolve to, and the problem lines of bad ones. */
class BanAttributesTest {

    @Test
    void aBanResolvesToItsCountItsLengthAndItsStatus() {
        BanRule ban = read(RULE + "rate", "10", RULE + "ban-after", "10/1m", RULE + "ban-for", "15m", RULE + "ban-status", "403")
                .rule("search").ban();
        assertThat(ban.after()).isEqualTo(Limit.of(10, 10, Duration.ofMinutes(1)));
        assertThat(ban.counter().maxCost()).isEqualTo(10);
        assertThat(ban.duration()).isEqualTo(Duration.ofMinutes(15));
        assertThat(ban.durationMicros()).isEqualTo(900_000_000L);
        assertThat(ban.status()).isEqualTo(403);
    }

    @Test
    void aRuleHasNoBanUnlessItSetsBanAfterAndItsStatusIs429ByDefault() {
        assertThat(read(RULE + "rate", "10").rule("search").ban()).isNull();
        BanRule ban = read(RULE + "rate", "10", RULE + "ban-after", "5/30s", RULE + "ban-for", "PT1H").rule("search").ban();
        assertThat(ban.status()).isEqualTo(429);
        assertThat(ban.duration()).isEqualTo(Duration.ofHours(1));
        assertThat(ban.after()).isEqualTo(Limit.of(5, 5, Duration.ofSeconds(30)));
    }

    @Test
    void aShadowRuleKeepsItsBanButEnforcesNone() {
        RuleConfig rule = read(RULE + "rate", "10", RULE + "mode", "shadow", RULE + "ban-after", "5/30s", RULE + "ban-for", "1m")
                .rule("search");
        assertThat(rule.ban()).isNotNull();
        assertThat(rule.live().enforcedBan()).isNull();
    }

    @Test
    void banAfterWithoutBanForFailsNamingBanFor() {
        assertThat(problems(RULE + "rate", "10", RULE + "ban-after", "10/1m")).containsExactly(
                "tollgate.rules.search.ban-for is not set: rule 'search' has ban-after and needs the ban's length, e.g. 10m "
                        + "(more than 0, at most 7d)");
    }

    @Test
    void banForOrBanStatusWithoutBanAfterFails() {
        assertThat(problems(RULE + "rate", "10", RULE + "ban-for", "10m", RULE + "ban-status", "403")).containsExactly(
                "tollgate.rules.search.ban-for = '10m': applies only with ban-after, which rule 'search' does not set",
                "tollgate.rules.search.ban-status = '403': applies only with ban-after, which rule 'search' does not set");
    }

    @Test
    void badValuesSayWhatIsExpected() {
        assertThat(problems(RULE + "rate", "10", RULE + "ban-after", "10", RULE + "ban-for", "10m")).containsExactly(
                "tollgate.rules.search.ban-after = '10': not a count of denials per period; use <n>/<period>, e.g. 10/1m or 5/30s");
        assertThat(problems(RULE + "rate", "10", RULE + "ban-after", "0/1m", RULE + "ban-for", "10m")).containsExactly(
                "tollgate.rules.search.ban-after = '0/1m': the count of denials must be at least 1");
        assertThat(problems(RULE + "rate", "10", RULE + "ban-after", "10/1m", RULE + "ban-for", "8d")).containsExactly(
                "tollgate.rules.search.ban-for = '8d': must be more than 0 and at most 7d");
        assertThat(problems(RULE + "rate", "10", RULE + "ban-after", "10/1m", RULE + "ban-for", "1m", RULE + "ban-status", "404"))
                .containsExactly("tollgate.rules.search.ban-status = '404': must be 429 or 403");
    }
}
