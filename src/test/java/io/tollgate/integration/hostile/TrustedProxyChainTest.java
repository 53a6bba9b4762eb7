package io.tollgate.integration.hostile;

import static io.tollgate.integration.hostile.GeneratedAddress.publicV4;
import static io.tollgate.integration.hostile.GeneratedAddress.trustedV4;
import static io.tollgate.integration.hostile.GeneratedAddress.trustedV6;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.testing.Fuzz;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.RawHttp;
import io.tollgate.testing.RawHttp.Header;
import io.tollgate.testing.SharedCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Forwarding chains from a trusted proxy, generated: the client is the one the README's walk from the right names. */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
class TrustedProxyChainTest {

    private static final int TRUSTED_CASES = 300;

    private final HostileApp app;

    TrustedProxyChainTest(HazelcastTestCluster cluster) {
        app = new HostileApp(cluster);
    }

    @AfterEach
    void stop() {
        app.close();
    }

    /**
     * From a trusted proxy, the README's rule picks the client: walk the chain of the header the
     * proxies write from the right, past every trusted proxy (at most 32 hops), to the first hop a
     * trusted proxy saw, compared in canonical form; a hop that is not an address ends the walk and
     * is the key (cut to 64 characters). The chains are generated: junk the client wrote on the left
     * (spoofed addresses, quotes, brackets, control characters, thousands of hops), the client's hop,
     * then trusted proxies (sometimes more than 32), split over several header lines, with a spoofed
     * header of the other kind alongside. Each rule's bucket holds one token: a new client's first
     * request passes and a clean probe naming the expected client is then denied (so that request
     * charged that client and no other); a known client, however spelled, is denied.
     */
    @ParameterizedTest(name = "tollgate.trusted-proxies.header={0}")
    @ValueSource(strings = {"x-forwarded-for", "forwarded"})
    void forwardingChainsFromATrustedProxyNameTheClientTheReadmeSays(String header) throws Exception {
        Random r = Fuzz.random("trusted-forwarding-" + header);
        boolean forwardedHeader = header.equals("forwarded");
        String headerName = forwardedHeader ? "Forwarded" : "X-Forwarded-For";
        String otherName = forwardedHeader ? "X-Forwarded-For" : "Forwarded";
        app.start(HostileApp.keyedResources()
                .property("tollgate.trusted-proxies", "127.0.0.1, 10.0.0.0/8, fd00::/8")
                .property("tollgate.trusted-proxies.header", header));
        ExpectedBuckets buckets = new ExpectedBuckets(1);
        List<GeneratedAddress> known = new ArrayList<>();
        int fresh = 0;
        int again = 0;
        int beyond32 = 0;
        int nonAddresses = 0;
        int probes = 0;
        for (int i = 0; i < TRUSTED_CASES; i++) {
            List<String> junk = new ArrayList<>();
            int junkCount = r.nextInt(15) == 0 ? 200 + r.nextInt(2000) : r.nextInt(5);
            for (int j = 0; j < junkCount; j++) {
                String item = ForwardingChains.junk(r);
                junk.add(forwardedHeader ? (item.startsWith("for=") ? item : "for=" + item) : item);
            }
            ForwardingChains.Hop client = ForwardingChains.clientHop(r, known);
            int proxies = r.nextInt(12) == 0 ? 30 + r.nextInt(10) : r.nextInt(5);
            List<ForwardingChains.Hop> trusted = new ArrayList<>();
            for (int p = 0; p < proxies; p++) {
                trusted.add(ForwardingChains.addressHop(r.nextBoolean() ? trustedV4(r) : trustedV6(r), r));
            }
            ForwardingChains.Hop stop = proxies >= 32 ? trusted.get(proxies - 32) : client;
            String expected = stop.key;
            beyond32 += proxies >= 32 ? 1 : 0;
            nonAddresses += stop.address ? 0 : 1;

            List<String> elements = new ArrayList<>(junk);
            elements.add(forwardedHeader ? ForwardingChains.forwardedElement(client.forwarded, r) : ForwardingChains.pad(client.xff, r));
            for (ForwardingChains.Hop hop : trusted) {
                if (forwardedHeader && r.nextInt(5) == 0) {
                    elements.add("proto=https;host=" + ForwardingChains.notAnAddress(r, 6)); // names no client: not a hop
                }
                elements.add(forwardedHeader ? ForwardingChains.forwardedElement(hop.forwarded, r) : ForwardingChains.pad(hop.xff, r));
            }
            List<Header> headers = new ArrayList<>();
            for (String line : ForwardingChains.splitIntoLines(elements, r)) {
                headers.add(Header.of(headerName, line));
            }
            if (r.nextInt(3) == 0) {
                String spoof = forwardedHeader ? publicV4(r).spelling(r) : "for=" + publicV4(r).spelling(r);
                headers.add(r.nextInt(headers.size() + 1), Header.of(otherName, spoof));
            }
            String what = "case " + i + ": expected client '" + Fuzz.show(expected) + "' from " + headerName + ": "
                    + Fuzz.show(String.join(", ", elements));
            boolean mustPass = buckets.charge(expected, 1);
            RawHttp.Response response = app.send("GET", "/keys/ip", headers, what);
            assertThat(response.status()).as(what + Fuzz.replay()).isEqualTo(mustPass ? 200 : 429);
            if (mustPass) {
                fresh++;
                probes++;
                RawHttp.Response probe = app.send("GET", "/keys/ip", List.of(Header.of(headerName, stop.probe(forwardedHeader))),
                        "probe of " + what);
                assertThat(probe.status()).as("the chain charged its client's bucket; " + what + Fuzz.replay()).isEqualTo(429);
            } else {
                again++;
            }
        }
        System.out.printf("trusted forwarding (%s): %d chains generated: %d new clients (each confirmed by a probe), "
                + "%d known clients in other spellings or behind other proxies, %d with more than 32 trusted hops, "
                + "%d naming a client that is not an address; %d buckets, %d requests%n",
                header, TRUSTED_CASES, fresh, again, beyond32, nonAddresses, buckets.count(), TRUSTED_CASES + probes);
    }
}
