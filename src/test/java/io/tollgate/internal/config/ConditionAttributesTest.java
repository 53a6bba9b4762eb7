package io.tollgate.internal.config;

import static io.tollgate.internal.config.ConfigTesting.MATCH_HELP;
import static io.tollgate.internal.config.ConfigTesting.RULE;
import static io.tollgate.internal.config.ConfigTesting.problems;
import static io.tollgate.internal.config.ConfigTesting.read;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.testing.FakeRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A rule's {@code exempt}, {@code on-missing-key} and the richer {@code match}: what they resolve to, their defaults, bad values. */
class ConditionAttributesTest {

    @Test
    void resolvesExemptOnMissingKeyAndARichMatch() {
        RuleConfig rule = read(
                RULE + "rate", "10",
                RULE + "key", "header:X-Api-Key",
                RULE + "on-missing-key", "REJECT",
                RULE + "match", "method=POST|PUT, header:X-Tier!=gold",
                RULE + "exempt", "ip=10.0.0.0/8, role=admin").rule("search");

        assertThat(rule.onMissingKey()).isEqualTo(MissingKeyPolicy.REJECT);
        assertThat(rule.exempt()).hasToString("ip=10.0.0.0/8, role=admin");
        assertThat(rule.match()).hasToString("method=POST|PUT, header:X-Tier!=gold");
        assertThat(rule.appliesTo(FakeRequest.request().method("POST").incoming())).isTrue();
        assertThat(rule.appliesTo(FakeRequest.request().method("GET").incoming())).as("not matched").isFalse();
        assertThat(rule.appliesTo(FakeRequest.request().method("PUT").header("X-Tier", "gold").incoming())).isFalse();
        assertThat(rule.appliesTo(FakeRequest.request().method("POST").from("10.9.8.7").incoming())).as("exempt").isFalse();
        assertThat(rule.appliesTo(FakeRequest.request().method("POST").roles("admin").incoming())).as("exempt").isFalse();
        assertThat(rule.appliesTo(null)).isFalse();
        assertThat(rule).hasToString("search [10/1s burst 10] key=header:X-Api-Key cost=1 match=method=POST|PUT, header:X-Tier!=gold"
                + " mode=ENFORCE on-store-failure=LOCAL exempt=ip=10.0.0.0/8, role=admin on-missing-key=REJECT");
    }

    @Test
    void byDefaultNothingIsExemptAndKeylessRequestsShareABucket() {
        RuleConfig rule = read(RULE + "rate", "10").rule("search");
        assertThat(rule.exempt().isNone()).isTrue();
        assertThat(rule.onMissingKey()).isEqualTo(MissingKeyPolicy.SHARED);
        assertThat(rule.appliesTo(FakeRequest.request().roles("admin").from("10.0.0.1").incoming())).isTrue();
        assertThat(rule.appliesTo(null)).isTrue();
        assertThat(RuleAttributes.EXEMPT.documentedDefault()).isEqualTo("(none)");
        assertThat(RuleAttributes.ON_MISSING_KEY.documentedDefault()).isEqualTo("`shared`");
    }

    @Test
    void takesEveryPolicy() {
        for (MissingKeyPolicy policy : MissingKeyPolicy.values()) {
            String name = policy.name().toLowerCase(java.util.Locale.ROOT);
            assertThat(read(RULE + "rate", "10", RULE + "on-missing-key", name).rule("search").onMissingKey()).isEqualTo(policy);
        }
    }

    @Test
    void refusesABadOnMissingKey() {
        assertThat(problems(RULE + "rate", "10", RULE + "on-missing-key", "ignore")).containsExactly(
                "tollgate.rules.search.on-missing-key = 'ignore': must be one of shared, skip, reject");
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(delimiter = '#', value = {
        "match  # method=FETCH                  # 'method=FETCH': 'FETCH' is not an HTTP method; use GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS, TRACE, CONNECT",
        "match  # header:X-Tier=gold, ip=1      # 'ip=1': '1' is not an IP address or CIDR range",
        "match  # role=                         # 'role=': name one or more roles, e.g. role=admin",
        "exempt # ip=10.0.0.0/8, ip=10.0.0.0/33 # 'ip=10.0.0.0/33': '10.0.0.0/33' has a prefix length outside 0..32",
        "exempt # ip=10.0.0.0/8|fd00::/129      # 'ip=10.0.0.0/8|fd00::/129': 'fd00::/129' has a prefix length outside 0..128",
        "exempt # method=*                      # 'method=*': every request has a method; name the methods, e.g. method=POST|PUT",
        "exempt # role=admin,                   # ''" + "%HELP",
        "exempt # !role=admin                   # '!role=admin': negate with != after the source (header:X-Internal!=* holds where that header is absent)",
        "exempt # admin                         # 'admin'" + "%HELP",
    })
    void refusesAMalformedConditionNamingThePropertyTheValueAndTheReason(String attribute, String value, String reason) {
        assertThat(problems(RULE + "rate", "10", RULE + attribute, value)).containsExactly(
                "tollgate.rules.search." + attribute + " = '" + value + "': " + reason.replace("%HELP", MATCH_HELP));
    }

    @Test
    void reportsEveryBadConditionAttributeAtOnce() {
        assertThat(problems(RULE + "rate", "10", RULE + "match", "method=GETS", RULE + "exempt", "ip=300.0.0.1",
                RULE + "on-missing-key", "drop")).containsExactly(
                        "tollgate.rules.search.match = 'method=GETS': 'method=GETS': 'GETS' is not an HTTP method; use GET, HEAD, "
                                + "POST, PUT, DELETE, PATCH, OPTIONS, TRACE, CONNECT",
                        "tollgate.rules.search.exempt = 'ip=300.0.0.1': 'ip=300.0.0.1': '300.0.0.1' is not an IP address or CIDR range",
                        "tollgate.rules.search.on-missing-key = 'drop': must be one of shared, skip, reject");
    }
}
