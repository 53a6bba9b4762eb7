package io.tollgate.integration;

import static io.tollgate.testing.Http.header;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.app.KeysResource;
import io.tollgate.app.TenantKeys;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.SharedCluster;
import io.tollgate.testing.TestApp;
import io.tollgate.testing.Tokens;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Each key source puts each client in its own bucket (one token per hour here): the second request of
 * a client is denied, another client's first is not. Forwarding headers count only from trusted proxies.
 */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
class KeySourcesTest {

    private final HazelcastTestCluster cluster;
    private TestApp app;

    KeySourcesTest(HazelcastTestCluster cluster) {
        this.cluster = cluster;
        cluster.clock().set(2_100_000_000L * 1_000_000);
    }

    @AfterEach
    void stop() {
        if (app != null) {
            app.close();
        }
    }

    private TestApp start(String trustedProxies) throws Exception {
        return start(trustedProxies, null);
    }

    private TestApp start(String trustedProxies, String header) throws Exception {
        TestApp.Builder builder = TestApp.builder().beans(KeysResource.class, TenantKeys.class)
                .hazelcast(cluster.member(1))
                .property("tollgate.hazelcast.map", "keys-" + UUID.randomUUID())
                .properties(SampleRules.keys());
        if (trustedProxies != null) {
            builder.property("tollgate.trusted-proxies", trustedProxies);
        }
        if (header != null) {
            builder.property("tollgate.trusted-proxies.header", header);
        }
        app = builder.start();
        return app;
    }

    private void assertOwnBuckets(String path, String[] clientA, String[] clientB) throws Exception {
        assertThat(app.get(path, clientA).statusCode()).as("first request of A").isEqualTo(200);
        assertThat(app.get(path, clientA).statusCode()).as("second request of A").isEqualTo(429);
        assertThat(app.get(path, clientB).statusCode()).as("first request of B").isEqualTo(200);
        assertThat(app.get(path, clientB).statusCode()).as("second request of B").isEqualTo(429);
    }

    private static String[] h(String... headers) {
        return headers;
    }

    @Test
    void headerQueryPrincipalClaimPathAndCompositeKeys() throws Exception {
        start(null);
        assertOwnBuckets("keys/header", h("X-Api-Key", "key-a"), h("X-Api-Key", "key-b"));
        assertThat(app.get("keys/query?api_key=a").statusCode()).isEqualTo(200);
        assertThat(app.get("keys/query?api_key=a").statusCode()).isEqualTo(429);
        assertThat(app.get("keys/query?api_key=b").statusCode()).isEqualTo(200);
        assertOwnBuckets("keys/principal", h("X-Test-User", "alice"), h("X-Test-User", "bob"));
        String acme = "Bearer " + Tokens.token("u1", Map.of("tenant", "acme"));
        String globex = "Bearer " + Tokens.token("u2", Map.of("tenant", "globex"));
        String acmeOtherUser = "Bearer " + Tokens.token("u3", Map.of("tenant", "acme"));
        assertOwnBuckets("keys/claim", h("Authorization", acme), h("Authorization", globex));
        assertThat(app.get("keys/claim", "Authorization", acmeOtherUser).statusCode()).as("same tenant, other user").isEqualTo(429);
        assertThat(app.get("keys/path/one").statusCode()).isEqualTo(200);
        assertThat(app.get("keys/path/one").statusCode()).isEqualTo(429);
        assertThat(app.get("keys/path/two").statusCode()).isEqualTo(200);
        // composite: header and query together make the key
        assertThat(app.get("keys/composite?region=eu", "X-Api-Key", "k").statusCode()).isEqualTo(200);
        assertThat(app.get("keys/composite?region=us", "X-Api-Key", "k").statusCode()).isEqualTo(200);
        assertThat(app.get("keys/composite?region=eu", "X-Api-Key", "k").statusCode()).isEqualTo(429);
        assertThat(app.get("keys/composite?region=eu", "X-Api-Key", "other").statusCode()).isEqualTo(200);
    }

    @Test
    void requestsWithoutTheKeyShareOneBucketInsteadOfEscapingTheLimit() throws Exception {
        start(null);
        assertThat(app.get("keys/header").statusCode()).isEqualTo(200);
        assertThat(app.get("keys/header").statusCode()).isEqualTo(429);
        assertThat(app.get("keys/claim").statusCode()).isEqualTo(200);
        assertThat(app.get("keys/claim").statusCode()).isEqualTo(429);
    }

    @Test
    void globalAndResolverKeys() throws Exception {
        start(null);
        assertThat(app.get("keys/global", "X-Api-Key", "a").statusCode()).isEqualTo(200);
        assertThat(app.get("keys/global", "X-Api-Key", "b").statusCode()).isEqualTo(429);
        // the resolver bean alternates tenant-a, tenant-b
        assertThat(app.get("keys/resolver").statusCode()).isEqualTo(200);
        assertThat(app.get("keys/resolver").statusCode()).isEqualTo(200);
        assertThat(app.get("keys/resolver").statusCode()).isEqualTo(429);
        assertThat(app.get("keys/resolver").statusCode()).isEqualTo(429);
    }

    @Test
    void forwardingHeadersFromAnUntrustedPeerAreIgnored() throws Exception {
        start(null);
        assertThat(app.get("keys/ip", "X-Forwarded-For", "198.51.100.1").statusCode()).isEqualTo(200);
        // a client cannot escape its bucket by claiming to be someone else
        assertThat(app.get("keys/ip", "X-Forwarded-For", "198.51.100.2").statusCode()).isEqualTo(429);
        assertThat(app.get("keys/ip", "Forwarded", "for=198.51.100.3").statusCode()).isEqualTo(429);
        assertThat(header(app.get("keys/ip"), "Retry-After")).isNotNull();
    }

    @Test
    void forwardingHeadersFromATrustedProxyNameTheClient() throws Exception {
        start("127.0.0.1, 10.0.0.0/8");
        assertOwnBuckets("keys/ip", h("X-Forwarded-For", "198.51.100.1"), h("X-Forwarded-For", "198.51.100.2"));
        // the client's own additions on the left are ignored: the first address a trusted proxy saw counts
        assertThat(app.get("keys/ip", "X-Forwarded-For", "1.2.3.4, 198.51.100.1").statusCode()).isEqualTo(429);
        assertThat(app.get("keys/ip", "X-Forwarded-For", "198.51.100.9, 10.1.2.3").statusCode()).isEqualTo(200);
        assertThat(app.get("keys/ip", "X-Forwarded-For", "198.51.100.9").statusCode()).isEqualTo(429);
        // the proxies write X-Forwarded-For: a Forwarded header the client adds does not choose its key
        assertThat(app.get("keys/ip", "X-Forwarded-For", "198.51.100.9", "Forwarded", "for=192.0.2.99").statusCode()).isEqualTo(429);
    }

    @Test
    void proxiesThatWriteTheStandardForwardedHeader() throws Exception {
        start("127.0.0.1", "forwarded");
        // RFC 7239 Forwarded, with a quoted IPv6 address and port
        assertOwnBuckets("keys/ip", h("Forwarded", "for=\"[2001:db8::1]:4711\";proto=https"), h("Forwarded", "for=192.0.2.60"));
        assertThat(app.get("keys/ip", "Forwarded", "for=\"[2001:db8:0:0:0:0:0:1]\"").statusCode()).as("same address, other spelling")
                .isEqualTo(429);
        assertThat(app.get("keys/ip", "Forwarded", "for=192.0.2.60", "X-Forwarded-For", "192.0.2.61").statusCode())
                .as("X-Forwarded-For is not read").isEqualTo(429);
    }
}
