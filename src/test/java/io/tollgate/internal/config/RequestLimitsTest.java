package io.tollgate.internal.config;

import static io.tollgate.internal.config.ConfigTesting.RULE;
import static io.tollgate.internal.config.ConfigTesting.problems;
import static io.tollgate.internal.config.ConfigTesting.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.internal.request.IncomingRequest;
import io.tollgate.internal.request.TrustedProxies;
import io.tollgate.testing.FakeRequest;
import io.tollgate.testing.MapSettings;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Limits taken from the caller's identity ({@code limits-from}, {@code max-limit}): parsing, capping, caching and the checks. */
class RequestLimitsTest {

    private static final TrustedProxies PROXIES = TrustedProxies.parse(List.of("10.0.0.1", "10.0.0.2"));

    private static final String NO_GATEWAYS = "a header is believed only from the gateways "
            + "tollgate.limits-from.trusted-gateways names, and it names none; set it to the address of the layer that sets the "
            + "header on every request (an API gateway, the application's TCP peer), or use jwt:<claim>";

    private static LiveRule fromClaim(String... more) {
        String[] base = {RULE + "rate", "1/1h", RULE + "limits-from", "jwt:rate_limit", RULE + "max-limit", "1000/1s burst 2000"};
        String[] all = new String[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return read(all).rule("search").live();
    }

    private static String limits(LiveRule live, IncomingRequest request) {
        return live.limits("client", request).text();
    }

    private static IncomingRequest claim(String value) {
        return FakeRequest.request().claim("rate_limit", value).incoming();
    }

    @ParameterizedTest(name = "''{0}'' -> {1}")
    @CsvSource(delimiter = '|', value = {
        "2/1h | 2/1h burst 2",
        "5/1h | 5/1h burst 5",
        "100/1m | 100/1m burst 100",
        "10/1s burst 20, 1000/1h | 10/1s burst 20, 1000/1h burst 1000",
        " 7/1s | 7/1s burst 7",
        "0.5 | 1/2s burst 1",
    })
    void aClaimWithinTheBoundIsTheRequestsLimits(String claim, String limits) {
        assertThat(limits(fromClaim(), claim(claim))).isEqualTo(limits);
    }

    @ParameterizedTest(name = "''{0}'' -> {1}")
    @CsvSource(delimiter = '|', value = {
        "5000/1s | 1000/1s burst 2000",          // rate and burst each capped
        "5000/1s burst 10 | 1000/1s burst 10",   // only the rate
        "10/1s burst 99999 | 10/1s burst 2000",  // only the burst
        "5000/1h | 5000/1h burst 2000",          // a slower rate with a large burst: the burst only
        "2000/1s burst 10, 9000/1h | 1000/1s burst 10, 9000/1h burst 2000",
    })
    void eachLimitAboveTheBoundGetsAtMostTheBoundsRateAndBurst(String claim, String limits) {
        assertThat(limits(fromClaim(), claim(claim))).isEqualTo(limits);
    }

    @ParameterizedTest(name = "''{0}''")
    @ValueSource(strings = {"", " ", "unlimited", "-5/1s", "0/1s", "10/1s burst 0", "1/1x", "10/1s;", "9999999999999999999/1s"})
    void aValueThatIsNotLimitsGetsTheRulesOwnLimits(String claim) {
        assertThat(limits(fromClaim(), claim(claim))).isEqualTo("1/1h burst 1");
    }

    @Test
    void aRequestWithoutTheValueOrNoRequestAtAllGetsTheRulesOwnLimits() {
        LiveRule live = fromClaim();
        assertThat(limits(live, FakeRequest.request().incoming())).isEqualTo("1/1h burst 1");
        assertThat(limits(live, null)).isEqualTo("1/1h burst 1");
        assertThat(live.limits("client").text()).isEqualTo("1/1h burst 1");
    }

    @Test
    void aValueLongerThanAnyLimitsTextGetsTheRulesOwnLimits() {
        String longText = "10/1s" + " ".repeat(RequestLimits.MAX_LENGTH);
        assertThat(limits(fromClaim(), claim(longText))).isEqualTo("1/1h burst 1");
    }

    @Test
    void anOverrideOfTheKeyWinsOverTheRequestsLimits() {
        LiveRule live = fromClaim(RULE + "overrides", "client=3/1m");
        assertThat(limits(live, claim("5/1h"))).isEqualTo("3/1m burst 3");
        assertThat(live.limits("other", claim("5/1h")).text()).isEqualTo("5/1h burst 5");
    }

    @Test
    void aBurstBelowTheRulesCostIsRaisedToIt() {
        LiveRule live = fromClaim(RULE + "rate", "10/1h", RULE + "cost", "3");
        assertThat(limits(live, claim("2/1h"))).isEqualTo("2/1h burst 3");
    }

    @Test
    void aStatedCostAboveTheRequestsSmallestBurstIsRefusedLikeOneAboveMaxCost() {
        LiveRule live = fromClaim(RULE + "rate", "10/1h", RULE + "cost", "header:X-Weight");
        IncomingRequest request = FakeRequest.request().claim("rate_limit", "2/1h").header("X-Weight", "3").incoming();
        long smallestBurst = live.limits("client", request).bucket().maxCost();
        assertThat(smallestBurst).isEqualTo(2);
        assertThatThrownBy(() -> live.cost().resolve(request, smallestBurst))
                .hasMessageContaining("exceeds max-cost 2");
        IncomingRequest within = FakeRequest.request().claim("rate_limit", "2/1h").header("X-Weight", "2").incoming();
        assertThat(live.cost().resolve(within, smallestBurst)).isEqualTo(2);
    }

    @Test
    void aKnownTextIsOneLookupGivingTheSameBucketEachTime() {
        LiveRule live = fromClaim();
        BucketLimits first = live.limits("a", claim("5/1h"));
        BucketLimits again = live.limits("b", claim("5/1h"));
        assertThat(again).isSameAs(first);
        assertThat(again.bucket()).isSameAs(first.bucket());
        assertThat(live.fromRequest().cached()).isEqualTo(1);
    }

    @Test
    void atMostMaxCachedTextsAreKeptAndLaterOnesAreStillParsed() {
        LiveRule live = fromClaim();
        for (int i = 1; i <= RequestLimits.MAX_CACHED + 50; i++) {
            assertThat(limits(live, claim(i + "/1h"))).isEqualTo(i + "/1h burst " + i);
        }
        assertThat(live.fromRequest().cached()).isEqualTo(RequestLimits.MAX_CACHED);
        assertThat(limits(live, claim("300/1h"))).isEqualTo("300/1h burst 300");
        assertThat(live.limits("x", claim("1/1h"))).isSameAs(live.limits("y", claim("1/1h")));
    }

    @Test
    void aHeaderIsBelievedOnlyFromATrustedGatewayAsTheTcpPeer() {
        LiveRule live = read(RULE + "rate", "1/1h", RULE + "limits-from", "header:X-Plan-Limit", RULE + "max-limit", "100/1s",
                "tollgate.trusted-proxies", "10.0.0.1, 10.0.0.2", "tollgate.limits-from.trusted-gateways", "10.0.0.1, fd00::/8")
                .rule("search").live();
        FakeRequest viaGateway = FakeRequest.request().from("10.0.0.1").header("X-Plan-Limit", "5/1h");
        FakeRequest viaV6Gateway = FakeRequest.request().from("fd00::7").header("X-Plan-Limit", "5/1h");
        FakeRequest direct = FakeRequest.request().from("198.51.100.7").header("X-Plan-Limit", "5/1h");
        // a trusted proxy that is no gateway, even one that says the request came from the gateway
        FakeRequest viaProxy = FakeRequest.request().from("10.0.0.2").header("X-Forwarded-For", "10.0.0.1")
                .header("X-Plan-Limit", "5/1h");
        assertThat(limits(live, viaGateway.incoming(PROXIES))).isEqualTo("5/1h burst 5");
        assertThat(limits(live, viaV6Gateway.incoming(PROXIES))).isEqualTo("5/1h burst 5");
        assertThat(limits(live, direct.incoming(PROXIES))).isEqualTo("1/1h burst 1");
        assertThat(limits(live, viaProxy.incoming(PROXIES))).isEqualTo("1/1h burst 1");
    }

    /** A bound changed at runtime keeps the gateways the deployment read; the proxies still do not count. */
    @Test
    void aRuleChangedAtRuntimeBelievesTheSameGateways() {
        String[] properties = {RULE + "rate", "1/1h", RULE + "limits-from", "header:X-Plan-Limit", RULE + "max-limit", "100/1s",
                "tollgate.trusted-proxies", "10.0.0.1, 10.0.0.2", "tollgate.limits-from.trusted-gateways", "10.0.0.1"};
        TollgateConfig config = read(properties);
        LiveRule live = new RuleEditor(MapSettings.of(properties), List.of(), config)
                .resolve("search", Map.of("max-limit", "3/1s"));
        FakeRequest viaGateway = FakeRequest.request().from("10.0.0.1").header("X-Plan-Limit", "5/1s");
        FakeRequest viaProxy = FakeRequest.request().from("10.0.0.2").header("X-Plan-Limit", "5/1s");
        assertThat(limits(live, viaGateway.incoming(PROXIES))).isEqualTo("3/1s burst 3");
        assertThat(limits(live, viaProxy.incoming(PROXIES))).isEqualTo("1/1h burst 1");
    }

    @Test
    void theBoundIsLiveAndShownWithTheLiveValues() {
        LiveRule live = fromClaim();
        assertThat(live.values()).containsEntry("max-limit", "1000/1s burst 2000");
        assertThat(RuleEditor.isLive("max-limit")).isTrue();
        assertThat(RuleEditor.isLive("limits-from")).isFalse();
        assertThat(read(RULE + "rate", "1/1h").rule("search").live().values()).doesNotContainKey("max-limit");
    }

    @Test
    void limitsFromNeedsABound() {
        assertThat(problems(RULE + "rate", "1/1h", RULE + "limits-from", "jwt:rate_limit")).containsExactly(
                "tollgate.rules.search.max-limit is not set: rule 'search' takes its limits from jwt:rate_limit and needs the most "
                        + "a request may get, one <rate> [burst <n>], e.g. 1000/1s burst 2000");
    }

    @Test
    void aBoundWithoutLimitsFromIsRefused() {
        assertThat(problems(RULE + "rate", "1/1h", RULE + "max-limit", "10/1s")).containsExactly(
                "tollgate.rules.search.max-limit = '10/1s': applies only with limits-from, which rule 'search' does not set");
    }

    @Test
    void theBoundIsOneLimitAtLeastTheRulesOwn() {
        assertThat(problems(RULE + "rate", "1/1h", RULE + "limits-from", "jwt:p", RULE + "max-limit", "10/1s, 100/1h")).containsExactly(
                "tollgate.rules.search.max-limit = '10/1s, 100/1h': 2 limits; the bound is one <rate> [burst <n>], "
                        + "e.g. 1000/1s burst 2000");
        assertThat(problems(RULE + "limits", "10/1s burst 20", RULE + "limits-from", "jwt:p", RULE + "max-limit", "100/1s burst 10"))
                .containsExactly("tollgate.rules.search.max-limit = '100/1s burst 10': below the rule's own limit 10/1s burst 20, "
                        + "which a request without limits gets; the bound must be at least the rule's limits");
    }

    @Test
    void aSourceIsAClaimOrAHeaderAndAHeaderNeedsTrustedGateways() {
        assertThat(problems(RULE + "rate", "1/1h", RULE + "limits-from", "query:plan", RULE + "max-limit", "10/1s")).containsExactly(
                "tollgate.rules.search.limits-from = 'query:plan': 'query:plan' is not a source of limits; use jwt:<claim> "
                        + "(a verified claim) or header:<name> (set by a trusted gateway)");
        assertThat(problems(RULE + "rate", "1/1h", RULE + "limits-from", "header:X-Plan-Limit", RULE + "max-limit", "10/1s"))
                .containsExactly("tollgate.rules.search.limits-from = 'header:X-Plan-Limit': " + NO_GATEWAYS);
        assertThat(problems(RULE + "rate", "1/1h", RULE + "limits-from", "header:X-Plan-Limit", RULE + "max-limit", "10/1s",
                "tollgate.limits-from.trusted-gateways", " "))
                .containsExactly("tollgate.rules.search.limits-from = 'header:X-Plan-Limit': " + NO_GATEWAYS);
        assertThat(read(RULE + "rate", "1/1h", RULE + "limits-from", "jwt:plan", RULE + "max-limit", "10/1s").rule("search")
                .live().fromRequest()).as("a claim needs no gateway").isNotNull();
    }

    /** A deployment that relied on tollgate.trusted-proxies for the header fails, and is told which property replaces it. */
    @Test
    void trustedProxiesAloneDoNotMakeAHeaderBelieved() {
        assertThat(problems(RULE + "rate", "1/1h", RULE + "limits-from", "header:X-Plan-Limit", RULE + "max-limit", "10/1s",
                "tollgate.trusted-proxies", "10.0.0.5"))
                .containsExactly("tollgate.rules.search.limits-from = 'header:X-Plan-Limit': " + NO_GATEWAYS
                        + "; tollgate.trusted-proxies does not count: it decides whose forwarding header names the client, and a "
                        + "proxy that passes the client's headers through would let the client pick its own limits");
    }

    @Test
    void aBadGatewayIsReportedOnceWithItsPropertyAndValue() {
        assertThat(problems(RULE + "rate", "1/1h", RULE + "limits-from", "header:X-Plan-Limit", RULE + "max-limit", "10/1s",
                "tollgate.limits-from.trusted-gateways", "10.0.0.5, gateway.internal"))
                .containsExactly("tollgate.limits-from.trusted-gateways = '10.0.0.5, gateway.internal': "
                        + "'gateway.internal' is not an IP address or CIDR range");
    }
}
