package io.tollgate.internal.request;

import static io.tollgate.testing.FakeRequest.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code match}: conditions on headers, claims and the principal that every request of a rule must meet. */
class MatchSpecTest {

    @Test
    void aBlankSpecMatchesEverythingEvenOutsideARequest() {
        MatchSpec all = MatchSpec.parse("  ");
        assertThat(all).isSameAs(MatchSpec.ALL);
        assertThat(all.isAll()).isTrue();
        assertThat(all.matches(null)).isTrue();
        assertThat(all.matches(request().incoming())).isTrue();
        assertThat(all).hasToString("");
    }

    @Test
    void aConditionHoldsOnlyForItsExactValue() {
        MatchSpec free = MatchSpec.parse("jwt:plan=free");
        assertThat(free.isAll()).isFalse();
        assertThat(free).hasToString("jwt:plan=free");
        assertThat(free.matches(request().claim("plan", "free").incoming())).isTrue();
        assertThat(free.matches(request().claim("plan", "pro").incoming())).isFalse();
        assertThat(free.matches(request().claim("plan", "Free").incoming())).isFalse();
        assertThat(free.matches(request().claim("plan", "free ").incoming())).isFalse();
        assertThat(free.matches(request().incoming())).isFalse();
    }

    @Test
    void noConditionHoldsOutsideARequest() {
        assertThat(MatchSpec.parse("jwt:plan=free").matches(null)).isFalse();
        assertThat(MatchSpec.parse("principal=*").matches(null)).isFalse();
    }

    @Test
    void headerNamesAreCaseInsensitiveButValuesAreNot() {
        MatchSpec gold = MatchSpec.parse("HEADER:X-Tier = gold");
        assertThat(gold.matches(request().header("x-tier", "gold").incoming())).isTrue();
        assertThat(gold.matches(request().header("X-TIER", "gold").incoming())).isTrue();
        assertThat(gold.matches(request().header("X-Tier", "GOLD").incoming())).isFalse();
    }

    @Test
    void aStarOnlyAsksThatTheValueBePresent() {
        MatchSpec anyTier = MatchSpec.parse("query:tier=*");
        assertThat(anyTier.matches(request().query("tier", "x").incoming())).isTrue();
        assertThat(anyTier.matches(request().query("tier", "").incoming())).isTrue();
        assertThat(anyTier.matches(request().query("other", "x").incoming())).isFalse();
        MatchSpec signedIn = MatchSpec.parse("principal=*");
        assertThat(signedIn.matches(request().principal("alice").incoming())).isTrue();
        assertThat(signedIn.matches(request().incoming())).isFalse();
    }

    @Test
    void principalMatchesTheName() {
        MatchSpec alice = MatchSpec.parse("principal=alice");
        assertThat(alice.matches(request().principal("alice").incoming())).isTrue();
        assertThat(alice.matches(request().principal("bob").incoming())).isFalse();
    }

    @Test
    void everyConditionMustHold() {
        MatchSpec goldInEu = MatchSpec.parse("header:X-Tier=gold, jwt:region=eu");
        assertThat(goldInEu.matches(request().header("X-Tier", "gold").claim("region", "eu").incoming())).isTrue();
        assertThat(goldInEu.matches(request().header("X-Tier", "gold").claim("region", "us").incoming())).isFalse();
        assertThat(goldInEu.matches(request().header("X-Tier", "gold").incoming())).isFalse();
        assertThat(goldInEu.matches(request().claim("region", "eu").incoming())).isFalse();
    }

    @Test
    void aHeaderSentTwiceIsJudgedByItsFirstValue() {
        MatchSpec gold = MatchSpec.parse("header:X-Tier=gold");
        assertThat(gold.matches(request().header("X-Tier", "gold", "free").incoming())).isTrue();
        assertThat(gold.matches(request().header("X-Tier", "free", "gold").incoming())).isFalse();
    }

    @ParameterizedTest(name = "match {0}")
    @CsvSource(delimiter = '|', value = {
        "plan=free                  | plan=free",
        "jwt:plan                   | jwt:plan",
        "jwt:plan=                  | jwt:plan=",
        "jwt:plan=  *x,             | ''",
        "=free                      | =free",
        "cookie:tier=gold           | cookie:tier=gold",
        "principal:alice=1          | principal:alice=1",
        "header:X Tier=gold         | header:X Tier=gold",
    })
    void refusesAConditionThatIsNotSourceEqualsValue(String spec, String condition) {
        assertThatThrownBy(() -> MatchSpec.parse(spec))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("'" + condition + "'" + Condition.HELP);
    }
}
