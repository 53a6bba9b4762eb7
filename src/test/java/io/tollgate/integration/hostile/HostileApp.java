package io.tollgate.integration.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.app.KeysResource;
import io.tollgate.app.TenantKeys;
import io.tollgate.integration.SampleRules;
import io.tollgate.testing.Fuzz;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.RawHttp;
import io.tollgate.testing.RawHttp.Header;
import io.tollgate.testing.TestApp;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The application under attack: Tollgate on the shared cluster with a map of its own, the members'
 * clock stopped so that no bucket refills during a test. Requests go over a plain socket, and no
 * answer may be a server error.
 */
final class HostileApp implements AutoCloseable {

    private final HazelcastTestCluster cluster;
    private TestApp app;
    private String mapName;

    HostileApp(HazelcastTestCluster cluster) {
        this.cluster = cluster;
        cluster.clock().set(2_300_000_000L * 1_000_000);
    }

    /** @return the sample resources whose rules are each keyed their own way, one token per key ({@link SampleRules#keys()}) */
    static TestApp.Builder keyedResources() {
        return TestApp.builder().beans(KeysResource.class, TenantKeys.class).properties(SampleRules.keys());
    }

    /** The value as the application sees it: ISO-8859-1 text without the spaces and tabs around it. */
    static String headerValue(byte[] value) {
        return Fuzz.latin1(value).replaceAll("^[ \t]+|[ \t]+$", "");
    }

    void start(TestApp.Builder builder) throws Exception {
        mapName = "hostile-" + UUID.randomUUID();
        app = builder.hazelcast(cluster.member(1)).property("tollgate.hazelcast.map", mapName).start();
    }

    /** Sends the request as generated and checks that the answer is no server error. */
    RawHttp.Response send(String method, String target, List<Header> headers, String what) throws Exception {
        RawHttp.Response response = RawHttp.send(app.base(), method, target, headers);
        assertThat(response.status()).as("never a server error: " + what + " -> " + response + Fuzz.replay()).isLessThan(500);
        return response;
    }

    /** @return the keys of the buckets in the store: rule, ':' and the bucket key */
    Set<Object> storedKeys() {
        return cluster.member(0).getMap(mapName).keySet();
    }

    @Override
    public void close() {
        if (app != null) {
            app.close();
        }
        if (mapName != null) {
            cluster.member(0).getMap(mapName).destroy();
        }
    }
}
