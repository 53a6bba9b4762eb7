package io.tollgate.internal.request;

import static io.tollgate.testing.FakeRequest.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.testing.FakeRequest;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The client address: the TCP peer, or the first hop outside the trusted proxies, walking the chain from the right. */
class ClientAddressTest {

    private static TrustedProxies proxies(String... entries) {
        return TrustedProxies.parse(List.of(entries));
    }

    private final TrustedProxies trusted = proxies("10.0.0.0/8");
    private final TrustedProxies forwardedTrusted = trusted.withHeader(TrustedProxies.Header.FORWARDED);

    @Test
    void withoutTrustedProxiesItIsAlwaysThePeer() {
        FakeRequest r = request().from("203.0.113.9").header("X-Forwarded-For", "198.51.100.7")
                .header("Forwarded", "for=198.51.100.8");
        assertThat(ClientAddress.of(r, TrustedProxies.NONE)).isEqualTo("203.0.113.9");
    }

    @Test
    void anUntrustedPeerIsTheClientWhateverItsHeadersSay() {
        FakeRequest r = request().from("203.0.113.9").header("X-Forwarded-For", "198.51.100.7, 10.0.0.2")
                .header("Forwarded", "for=198.51.100.8");
        assertThat(ClientAddress.of(r, trusted)).isEqualTo("203.0.113.9");
        assertThat(ClientAddress.of(request().from("203.0.113.9").header("X-Forwarded-For", "198.51.100.7"), trusted))
                .isEqualTo("203.0.113.9");
    }

    @Test
    void aTrustedPeerWithoutForwardingHeadersIsTheClient() {
        assertThat(ClientAddress.of(request().from("10.0.0.1"), trusted)).isEqualTo("10.0.0.1");
    }

    @Test
    void aTrustedPeerIsBelievedAboutWhoItServes() {
        FakeRequest r = request().from("10.0.0.1").header("X-Forwarded-For", "198.51.100.7");
        assertThat(ClientAddress.of(r, trusted)).isEqualTo("198.51.100.7");
    }

    @Test
    void walksFromTheRightPastTrustedHopsAndNeverFurther() {
        // the client wrote 6.6.6.6 itself; 198.51.100.7 is what the first trusted proxy saw
        FakeRequest r = request().from("10.0.0.1").header("X-Forwarded-For", "6.6.6.6, 198.51.100.7, 10.0.0.3, 10.0.0.2");
        assertThat(ClientAddress.of(r, trusted)).isEqualTo("198.51.100.7");
    }

    /** README: an address is a proxy by its range alone, so a client inside a trusted range picks its key. */
    @Test
    void aClientInsideATrustedRangeIsWalkedPastAndWhatItWroteIsTheKey() {
        // 10.9.9.9 is a client, not a proxy, but inside 10.0.0.0/8: the README says so, and says not to do this
        FakeRequest r = request().from("10.0.0.1").header("X-Forwarded-For", "6.6.6.6, 10.9.9.9");
        assertThat(ClientAddress.of(r, trusted)).isEqualTo("6.6.6.6");
        // an address outside the ranges stops the walk: what lies left of it is never used
        FakeRequest outside = request().from("10.0.0.1").header("X-Forwarded-For", "6.6.6.6, 198.51.100.7, 10.9.9.9");
        assertThat(ClientAddress.of(outside, trusted)).isEqualTo("198.51.100.7");
    }

    @Test
    void whenEveryHopIsTrustedItIsTheLeftmost() {
        FakeRequest r = request().from("10.0.0.1").header("X-Forwarded-For", "10.0.0.3, 10.0.0.2");
        assertThat(ClientAddress.of(r, trusted)).isEqualTo("10.0.0.3");
    }

    @Test
    void severalForwardedForHeadersFormOneChain() {
        FakeRequest r = request().from("10.0.0.1")
                .header("X-Forwarded-For", "6.6.6.6, 198.51.100.7", "10.0.0.3", "10.0.0.2");
        assertThat(ClientAddress.of(r, trusted)).isEqualTo("198.51.100.7");
    }

    @Test
    void stripsPortsFromForwardedForEntries() {
        assertThat(ClientAddress.of(request().from("10.0.0.1").header("X-Forwarded-For", "198.51.100.7:5123"), trusted))
                .isEqualTo("198.51.100.7");
        assertThat(ClientAddress.of(request().from("10.0.0.1").header("X-Forwarded-For", "[2001:db8::7]:443"), trusted))
                .isEqualTo("2001:db8::7");
        assertThat(ClientAddress.of(request().from("10.0.0.1").header("X-Forwarded-For", "2001:db8:0:0:0:0:0:7"), trusted))
                .isEqualTo("2001:db8::7");
        assertThat(ClientAddress.of(request().from("10.0.0.1").header("X-Forwarded-For", "198.51.100.7:1, 10.0.0.2:80"),
                trusted)).isEqualTo("198.51.100.7");
    }

    @Test
    void readsOnlyTheHeaderTheProxiesWrite() {
        FakeRequest r = request().from("10.0.0.1").header("Forwarded", "for=198.51.100.9")
                .header("X-Forwarded-For", "198.51.100.7");
        assertThat(ClientAddress.of(r, trusted)).isEqualTo("198.51.100.7");
        assertThat(ClientAddress.of(r, trusted.withHeader(TrustedProxies.Header.FORWARDED))).isEqualTo("198.51.100.9");
        // a client behind an X-Forwarded-For proxy cannot choose its key with a Forwarded header of its own
        FakeRequest spoof = request().from("10.0.0.1").header("Forwarded", "for=1.1.1.1").header("X-Forwarded-For", "198.51.100.7");
        assertThat(ClientAddress.of(spoof, trusted)).isEqualTo("198.51.100.7");
    }

    @Test
    void readsForwardedWithQuotedIpv6AndPorts() {
        String forwarded = "for=192.0.2.60;proto=http;by=203.0.113.43, for=\"[2001:db8:cafe::17]:4711\"";
        FakeRequest r = request().from("10.0.0.1").header("Forwarded", forwarded);
        assertThat(ClientAddress.of(r, forwardedTrusted)).isEqualTo("2001:db8:cafe::17");
        assertThat(ClientAddress.of(r, proxies("10.0.0.0/8", "2001:db8:cafe::/48").withHeader(TrustedProxies.Header.FORWARDED)))
                .isEqualTo("192.0.2.60");
    }

    @Test
    void readsForwardedParametersInAnyOrderAndCase() {
        FakeRequest r = request().from("10.0.0.1")
                .header("Forwarded", "proto=https; For=\"198.51.100.7:4711\" ;by=10.0.0.1", "FOR = 10.0.0.2");
        assertThat(ClientAddress.of(r, forwardedTrusted)).isEqualTo("198.51.100.7");
        FakeRequest bracketed = request().from("10.0.0.1").header("Forwarded", "for=\"[2001:DB8:0:0:0:0:0:7]\"");
        assertThat(ClientAddress.of(bracketed, forwardedTrusted)).isEqualTo("2001:db8::7");
    }

    /** A {@code Forwarded} header that names no client (only {@code proto}/{@code host}) does not hide {@code X-Forwarded-For}. */
    @Test
    void aForwardedHeaderWithoutForDoesNotHideXForwardedFor() {
        FakeRequest r = request().from("10.0.0.1").header("Forwarded", "proto=https;host=example.com")
                .header("X-Forwarded-For", "198.51.100.7");
        assertThat(ClientAddress.of(r, trusted)).isEqualTo("198.51.100.7");
        // and read as the proxies' header it names no hop: the trusted peer is the client
        assertThat(ClientAddress.of(r, forwardedTrusted)).isEqualTo("10.0.0.1");
    }

    @Test
    void garbageLeftOfTheFirstUntrustedHopIsNeverRead() {
        FakeRequest r = request().from("10.0.0.1").header("X-Forwarded-For", "<script>, ;;, 198.51.100.7, 10.0.0.2");
        assertThat(ClientAddress.of(r, trusted)).isEqualTo("198.51.100.7");
    }

    @Test
    void aHopThatIsNotAnAddressEndsTheWalkAndIsShortened() {
        FakeRequest unknown = request().from("10.0.0.1").header("Forwarded", "for=unknown");
        assertThat(ClientAddress.of(unknown, forwardedTrusted)).isEqualTo("unknown");
        FakeRequest obfuscated = request().from("10.0.0.1").header("Forwarded", "for=\"_hidden\", for=10.0.0.2");
        assertThat(ClientAddress.of(obfuscated, forwardedTrusted)).isEqualTo("_hidden");
        String huge = "g".repeat(1000);
        FakeRequest garbage = request().from("10.0.0.1").header("X-Forwarded-For", "198.51.100.7, " + huge);
        assertThat(ClientAddress.of(garbage, trusted)).isEqualTo("g".repeat(64));
    }

    @Test
    void onlyTheLast32HopsAreExamined() {
        // 198.51.100.1 is 33rd from the right: it is never reached, the walk stops at the 32nd hop
        String thirtyTwoProxies = IntStream.rangeClosed(1, 32).mapToObj(i -> "10.0.1." + i).collect(Collectors.joining(", "));
        FakeRequest tooDeep = request().from("10.0.0.1").header("X-Forwarded-For", "198.51.100.1, " + thirtyTwoProxies);
        assertThat(ClientAddress.of(tooDeep, trusted)).isEqualTo("10.0.1.1");

        String thirtyOneProxies = IntStream.rangeClosed(2, 32).mapToObj(i -> "10.0.1." + i).collect(Collectors.joining(", "));
        FakeRequest deepest = request().from("10.0.0.1").header("X-Forwarded-For", "198.51.100.1, " + thirtyOneProxies);
        assertThat(ClientAddress.of(deepest, trusted)).isEqualTo("198.51.100.1");
    }

    @Test
    void aHugeForwardedHeaderIsCutToItsLast32Hops() {
        String spoofed = IntStream.range(0, 10_000).mapToObj(i -> "for=198.51.100.1").collect(Collectors.joining(", "));
        String proxiesPart = IntStream.rangeClosed(1, 32).mapToObj(i -> "for=10.0.2." + i).collect(Collectors.joining(", "));
        FakeRequest r = request().from("10.0.0.1").header("Forwarded", spoofed + ", " + proxiesPart);
        assertThat(ClientAddress.of(r, forwardedTrusted)).isEqualTo("10.0.2.1");
    }

    @Test
    void anIpv4MappedPeerIsItsIpv4Address() {
        assertThat(ClientAddress.of(request().from("::ffff:203.0.113.9"), TrustedProxies.NONE)).isEqualTo("203.0.113.9");
        FakeRequest viaProxy = request().from("::ffff:10.0.0.1").header("X-Forwarded-For", "::ffff:198.51.100.7");
        assertThat(ClientAddress.of(viaProxy, trusted)).isEqualTo("198.51.100.7");
    }

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource({
        "2001:0db8:0000:0000:0000:0000:0000:0001, 2001:db8::1",
        "0:0:0:0:0:0:0:1, ::1",
        "::1, ::1",
        "0:0:0:0:0:0:0:0, ::",
        "1:0:0:0:0:0:0:0, 1::",
        "2001:DB8::A, 2001:db8::a",
        "2001:db8:0:0:1:0:0:1, 2001:db8::1:0:0:1",
        "2001:db8:0:0:0:1:0:0, 2001:db8::1:0:0",
        "2001:db8:0:1:1:1:1:1, 2001:db8:0:1:1:1:1:1",
        "203.0.113.9, 203.0.113.9",
    })
    void aPeerAddressIsWrittenInItsCanonicalForm(String peer, String canonical) {
        assertThat(ClientAddress.of(request().from(peer), TrustedProxies.NONE)).isEqualTo(canonical);
    }

    @Test
    void aPeerThatIsNotAnAddressIsKeptShortened() {
        assertThat(ClientAddress.of(request().from(null), TrustedProxies.NONE)).isEmpty();
        assertThat(ClientAddress.of(request().from("fe80::1%eth0"), TrustedProxies.NONE)).isEqualTo("fe80::1%eth0");
        assertThat(ClientAddress.of(request().from("h".repeat(100)), TrustedProxies.NONE)).isEqualTo("h".repeat(64));
    }

    @Test
    void anIncomingRequestWorksOutItsClientAddressOnceAndOnlyWhenAsked() {
        FakeRequest view = request().from("10.0.0.1").header("X-Forwarded-For", "198.51.100.7");
        IncomingRequest incoming = new IncomingRequest(view, trusted);
        assertThat(view.remoteAddressReads()).isZero();
        assertThat(incoming.view()).isSameAs(view);
        assertThat(incoming.clientAddress()).isEqualTo("198.51.100.7");
        assertThat(incoming.clientAddress()).isEqualTo("198.51.100.7");
        assertThat(view.remoteAddressReads()).isEqualTo(1);
    }

    @Test
    void theIpKeyPartIsTheClientAddress() {
        IncomingRequest incoming = new IncomingRequest(
                request().from("10.0.0.1").header("X-Forwarded-For", "198.51.100.7"), trusted);
        assertThat(KeySpec.parse("ip").resolve("r", incoming, null, new Object[0], name -> null)).isEqualTo("198.51.100.7");
    }
}
