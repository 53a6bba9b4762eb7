package io.tollgate.integration.hostile;

import static io.tollgate.integration.hostile.GeneratedAddress.publicV4;
import static io.tollgate.integration.hostile.GeneratedAddress.publicV6;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Forwarding headers from a peer that is not a trusted proxy: the key is the peer, whatever they claim. */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
class UntrustedForwardingTest {

    private static final int UNTRUSTED_CASES = 400;
    private static final int IP_BURST = 5;

    private final HostileApp app;

    UntrustedForwardingTest(HazelcastTestCluster cluster) {
        app = new HostileApp(cluster);
    }

    @AfterEach
    void stop() {
        app.close();
    }

    /**
     * From a peer that is not a trusted proxy, whatever the forwarding headers say, the key is the
     * peer: a small burst, exhausted with a different claimed client on every request, stays
     * exhausted. Every request names another client, in either header or both, some with thousands of hops.
     */
    @Test
    void forwardingHeadersFromAnUntrustedPeerNeverGiveAFreshBucket() throws Exception {
        Random r = Fuzz.random("untrusted-forwarding");
        app.start(HostileApp.keyedResources()
                .property("tollgate.rules.by-ip.burst", Integer.toString(IP_BURST))
                .property("tollgate.trusted-proxies", "10.0.0.0/8, fd00::/8")); // the peer, 127.0.0.1, is not among them
        int allowed = 0;
        int denied = 0;
        int hops = 0;
        for (int i = 0; i < UNTRUSTED_CASES; i++) {
            List<Header> headers = new ArrayList<>();
            int kind = r.nextInt(3);
            if (kind != 1) {
                List<String> chain = new ArrayList<>();
                int length = r.nextInt(20) == 0 ? 100 + r.nextInt(2000) : 1 + r.nextInt(6);
                for (int h = 0; h < length; h++) {
                    chain.add(r.nextBoolean() ? publicV4(r).spelling(r) : ForwardingChains.junk(r));
                }
                hops += length;
                headers.add(Header.of("X-Forwarded-For", String.join(", ", chain)));
            }
            if (kind != 0) {
                List<String> chain = new ArrayList<>();
                int length = 1 + r.nextInt(6);
                for (int h = 0; h < length; h++) {
                    chain.add("for=" + (r.nextBoolean() ? publicV4(r).spelling(r) : "\"[" + publicV6(r).spelling(r) + "]\""));
                }
                hops += length;
                headers.add(Header.of("Forwarded", String.join(", ", chain)));
            }
            RawHttp.Response response = app.send("GET", "/keys/ip", headers, "untrusted case " + i);
            if (i < IP_BURST) {
                assertThat(response.status()).as("case " + i + Fuzz.replay()).isEqualTo(200);
                assertThat(response.remaining()).isEqualTo(IP_BURST - 1 - i);
                allowed++;
            } else {
                assertThat(response.status()).as("case " + i + ": a spoofed client must not get a fresh bucket" + Fuzz.replay())
                        .isEqualTo(429);
                denied++;
            }
        }
        assertThat(app.send("GET", "/keys/ip", List.of(), "no header").status()).isEqualTo(429);
        System.out.printf("untrusted forwarding: %d requests, each claiming other clients (%d hops in all): %d allowed "
                + "(the burst), %d denied%n", UNTRUSTED_CASES, hops, allowed, denied);
    }
}
