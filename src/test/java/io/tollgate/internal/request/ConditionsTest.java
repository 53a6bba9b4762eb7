package io.tollgate.internal.request;

import static io.tollgate.testing.FakeRequest.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.testing.FakeRequest;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The conditions of {@code match} and {@code exempt}: every source and operator on a fake request, and the reason
 * each malformed condition is refused with.
 */
class ConditionsTest {

    private static final TrustedProxies LOCAL_PROXY = TrustedProxies.parse(List.of("127.0.0.1"));

    private static boolean holds(String condition, FakeRequest request) {
        return MatchSpec.parse(condition).matches(request.incoming(LOCAL_PROXY));
    }

    @Test
    void methodMatchesAnyOfItsAlternativesInAnyCaseWritten() {
        assertThat(holds("method=POST", request().method("POST"))).isTrue();
        assertThat(holds("method=POST", request().method("GET"))).isFalse();
        assertThat(holds("method=post|Put", request().method("PUT"))).isTrue();
        assertThat(holds("method = POST | PUT", request().method("POST"))).isTrue();
        assertThat(holds("method=POST|PUT", request().method("DELETE"))).isFalse();
        assertThat(holds("METHOD=PATCH", request().method("PATCH"))).isTrue();
        assertThat(holds("method!=GET|HEAD", request().method("POST"))).isTrue();
        assertThat(holds("method!=GET|HEAD", request().method("HEAD"))).isFalse();
    }

    @Test
    void notEqualsHoldsExactlyWhereEqualsDoesNotAbsenceIncluded() {
        assertThat(holds("header:X-Tier!=gold", request().header("X-Tier", "free"))).isTrue();
        assertThat(holds("header:X-Tier!=gold", request().header("X-Tier", "gold"))).isFalse();
        assertThat(holds("header:X-Tier!=gold", request())).as("an absent header is not gold").isTrue();
        assertThat(holds("header:X-Tier!=gold|silver", request().header("X-Tier", "silver"))).isFalse();
        assertThat(holds("header:X-Tier != gold", request().header("x-tier", "bronze"))).isTrue();
        assertThat(holds("jwt:plan!=free", request().claim("plan", "pro"))).isTrue();
        assertThat(holds("query:debug!=1", request().query("debug", "1"))).isFalse();
        assertThat(holds("principal!=alice", request().principal("bob"))).isTrue();
    }

    @Test
    void notEqualsStarHoldsWhereTheValueIsAbsent() {
        assertThat(holds("header:X-Internal!=*", request())).isTrue();
        assertThat(holds("header:X-Internal!=*", request().header("X-Internal", ""))).isFalse();
        assertThat(holds("header:X-Internal!=*", request().header("X-Internal", "yes"))).isFalse();
        assertThat(holds("principal!=*", request())).isTrue();
        assertThat(holds("principal!=*", request().principal("alice"))).isFalse();
    }

    @Test
    void alternativesApplyToEverySource() {
        assertThat(holds("header:X-Tier=gold|silver", request().header("X-Tier", "silver"))).isTrue();
        assertThat(holds("header:X-Tier=gold|silver", request().header("X-Tier", "bronze"))).isFalse();
        assertThat(holds("jwt:plan=free|trial", request().claim("plan", "trial"))).isTrue();
        assertThat(holds("query:v=1|2", request().query("v", "2"))).isTrue();
        assertThat(holds("principal=alice|bob", request().principal("bob"))).isTrue();
    }

    @Test
    void ipMatchesTheClientAddressInIpv4AndIpv6Ranges() {
        String ranges = "ip=10.0.0.0/8|192.168.0.0/16|2001:db8::/32|203.0.113.7";
        assertThat(holds(ranges, request().from("10.200.3.4"))).isTrue();
        assertThat(holds(ranges, request().from("192.168.255.1"))).isTrue();
        assertThat(holds(ranges, request().from("203.0.113.7"))).isTrue();
        assertThat(holds(ranges, request().from("203.0.113.8"))).isFalse();
        assertThat(holds(ranges, request().from("11.0.0.1"))).isFalse();
        assertThat(holds(ranges, request().from("2001:db8:ffff::1"))).isTrue();
        assertThat(holds(ranges, request().from("2001:db9::1"))).isFalse();
        assertThat(holds(ranges, request().from("::ffff:10.1.2.3"))).as("an IPv4-mapped address is its IPv4 address").isTrue();
        assertThat(holds("ip!=10.0.0.0/8", request().from("10.1.2.3"))).isFalse();
        assertThat(holds("ip!=10.0.0.0/8", request().from("172.16.0.1"))).isTrue();
        assertThat(holds("ip=0.0.0.0/0", request().from("8.8.8.8"))).isTrue();
        assertThat(holds("ip=0.0.0.0/0", request().from("::1"))).as("an IPv4 range holds no IPv6 address").isFalse();
    }

    @Test
    void ipIsTheClientAddressAsTrustedProxiesGiveIt() {
        FakeRequest viaProxy = request().from("127.0.0.1").header("X-Forwarded-For", "10.1.2.3");
        assertThat(holds("ip=10.0.0.0/8", viaProxy)).isTrue();
        FakeRequest untrusted = request().from("198.51.100.9").header("X-Forwarded-For", "10.1.2.3");
        assertThat(holds("ip=10.0.0.0/8", untrusted)).as("a header from a peer that is no trusted proxy is not believed").isFalse();
        FakeRequest spoofed = request().from("127.0.0.1").header("X-Forwarded-For", "10.1.2.3, 198.51.100.9");
        assertThat(holds("ip=10.0.0.0/8", spoofed)).as("what the client wrote left of the proxy's entry is never used").isFalse();
    }

    @Test
    void roleAsksTheServerWhetherTheCallerIsInOneOfTheRoles() {
        assertThat(holds("role=admin", request().roles("admin"))).isTrue();
        assertThat(holds("role=admin", request().roles("user"))).isFalse();
        assertThat(holds("role=admin", request())).isFalse();
        assertThat(holds("role=admin|operator", request().roles("user", "operator"))).isTrue();
        assertThat(holds("role!=admin", request().roles("user"))).isTrue();
        assertThat(holds("role!=admin", request().roles("admin"))).isFalse();
        assertThat(holds("role=Admin", request().roles("admin"))).as("role names are compared as the server compares them").isFalse();
    }

    @Test
    void negationsHoldNowhereOutsideAnHttpRequest() {
        assertThat(MatchSpec.parse("header:X-Internal!=*").matches(null)).isFalse();
        assertThat(MatchSpec.parse("method!=GET").matches(null)).isFalse();
        assertThat(MatchSpec.parse("role!=admin").matches(null)).isFalse();
        assertThat(ExemptSpec.parse("ip!=10.0.0.0/8").exempts(null)).isFalse();
    }

    @Test
    void aMatchNeedsEveryConditionAndAnExemptionAnyOne() {
        FakeRequest internalUser = request().from("10.1.2.3").roles("user");
        FakeRequest outsideAdmin = request().from("198.51.100.9").roles("admin");
        FakeRequest outsideUser = request().from("198.51.100.9").roles("user");
        MatchSpec both = MatchSpec.parse("ip=10.0.0.0/8, role=admin");
        ExemptSpec either = ExemptSpec.parse("ip=10.0.0.0/8, role=admin");
        assertThat(both.matches(internalUser.incoming())).isFalse();
        assertThat(both.matches(request().from("10.1.2.3").roles("admin").incoming())).isTrue();
        assertThat(either.exempts(internalUser.incoming())).isTrue();
        assertThat(either.exempts(outsideAdmin.incoming())).isTrue();
        assertThat(either.exempts(outsideUser.incoming())).isFalse();
        assertThat(either).hasToString("ip=10.0.0.0/8, role=admin");
        assertThat(either.isNone()).isFalse();
    }

    @Test
    void aBlankExemptionExemptsNothing() {
        ExemptSpec none = ExemptSpec.parse(" ");
        assertThat(none).isSameAs(ExemptSpec.NONE);
        assertThat(none.isNone()).isTrue();
        assertThat(none.exempts(request().roles("admin").incoming())).isFalse();
        assertThat(none.exempts(null)).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '#', value = {
        "!header:X-Internal     # '!header:X-Internal': negate with != after the source (header:X-Internal!=* holds where that header is absent)",
        "!header:X-Internal=*   # '!header:X-Internal=*': negate with != after the source (header:X-Internal!=* holds where that header is absent)",
        "!=gold                 # '!=gold': negate with != after the source (header:X-Internal!=* holds where that header is absent)",
        "header:X-Tier=!gold    # 'header:X-Tier=!gold': ambiguous; write <source>=<value> or <source>!=<value>, with no second operator",
        "header:X-Tier==gold    # 'header:X-Tier==gold': ambiguous; write <source>=<value> or <source>!=<value>, with no second operator",
        "header:X-Tier!==gold   # 'header:X-Tier!==gold': ambiguous; write <source>=<value> or <source>!=<value>, with no second operator",
        "header:X-Tier=gold|    # 'header:X-Tier=gold|': an empty value between | (give each value, or * alone for any value)",
        "jwt:plan=|free         # 'jwt:plan=|free': an empty value between | (give each value, or * alone for any value)",
        "header:X-Tier=gold|*   # 'header:X-Tier=gold|*': * stands alone: it is any value",
        "method=FETCH           # 'method=FETCH': 'FETCH' is not an HTTP method; use GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS, TRACE, CONNECT",
        "method=POST|PROPFIND   # 'method=POST|PROPFIND': 'PROPFIND' is not an HTTP method; use GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS, TRACE, CONNECT",
        "method=                # 'method=': name one or more HTTP methods, e.g. method=POST|PUT",
        "method=*               # 'method=*': every request has a method; name the methods, e.g. method=POST|PUT",
        "method!=*              # 'method!=*': every request has a method; name the methods, e.g. method=POST|PUT",
        "ip=10.0.0.0/33         # 'ip=10.0.0.0/33': '10.0.0.0/33' has a prefix length outside 0..32",
        "ip=fd00::/129          # 'ip=fd00::/129': 'fd00::/129' has a prefix length outside 0..128",
        "ip=10.0.0.256          # 'ip=10.0.0.256': '10.0.0.256' is not an IP address or CIDR range",
        "ip=10.0.0.0/8|intranet # 'ip=10.0.0.0/8|intranet': 'intranet' is not an IP address or CIDR range",
        "ip=10.0.0.0/x          # 'ip=10.0.0.0/x': '10.0.0.0/x' has a prefix length outside 0..32",
        "ip=                    # 'ip=': give one or more addresses or CIDR ranges, e.g. ip=10.0.0.0/8|fd00::/8",
        "ip=*                   # 'ip=*': every request has a client address; give addresses or CIDR ranges",
        "role=                  # 'role=': name one or more roles, e.g. role=admin",
        "role!=                 # 'role!=': name one or more roles, e.g. role=admin",
        "role=admin|            # 'role=admin|': an empty value between | (give each value, or * alone for any value)",
        "role=*                 # 'role=*': name the roles; principal=* holds for any authenticated caller",
    })
    void refusesAMalformedConditionWithItsReason(String condition, String message) {
        assertThatThrownBy(() -> MatchSpec.parse(condition)).isInstanceOf(IllegalArgumentException.class).hasMessage(message);
        assertThatThrownBy(() -> ExemptSpec.parse(condition)).isInstanceOf(IllegalArgumentException.class).hasMessage(message);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "header:X-Tier!       | header:X-Tier!",
        "cookie:tier!=gold    | cookie:tier!=gold",
        "address=10.0.0.0/8   | address=10.0.0.0/8",
        "header:X-Tier!=      | header:X-Tier!=",
    })
    void refusesWhatIsNoConditionAtAll(String condition, String shown) {
        assertThatThrownBy(() -> ExemptSpec.parse(condition)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("'" + shown + "'" + Condition.HELP);
    }

    @Test
    void theHelpNamesEverySourceAndOperator() {
        assertThat(Condition.HELP).isEqualTo(" is not a condition; use <source>=<value> or <source>!=<value> with a source "
                + "header:<name>, query:<name>, jwt:<claim>, principal, method, ip or role, | between values and * for any value");
    }
}
