package io.tollgate.it;

import static io.tollgate.it.Http.describe;
import static io.tollgate.it.Http.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.hazelcast.config.Config;
import com.hazelcast.config.FileSystemYamlConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.container.test.api.TargetsContainer;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Both instances as Hazelcast clients of an external cluster: a member this test starts from
 * {@code ../server-config/hazelcast.yaml} (Tollgate's jar on its class path, as the file asks; the cluster name the
 * servers are configured with, a port of its own), which the WAR names in {@code tollgate.hazelcast.client.addresses} (on Payara its Data Grid skipped by
 * a JNDI name that names nothing). A key of {@code search} (burst 3) gets 3 × 200 across the two instances, then 429
 * on both; its bucket is in the member's map.
 */
@ExtendWith(ArquillianExtension.class)
class ExternalClusterIT {

    private static final Path MEMBER = Path.of("../server-config/hazelcast.yaml");
    /**
     * The cluster name each server's configuration gives Tollgate (above the WAR's, where it is given: Liberty's
     * bootstrap.properties, WildFly's and Quarkus's system properties); on Payara the WAR's. No member of this
     * server's other classes runs while this class does.
     */
    private static final String CLUSTER = System.getProperty("it.cluster.name");
    private static HazelcastInstance member;

    private static synchronized HazelcastInstance member() {
        if (member == null) {
            Properties variables = new Properties();
            variables.putAll(System.getProperties());
            variables.setProperty("tollgate.hazelcast.cluster-name", CLUSTER);
            Config config;
            try {
                config = new FileSystemYamlConfig(MEMBER.toFile(), variables);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            config.setInstanceName(CLUSTER);
            config.getNetworkConfig().setPort(5941).setPortAutoIncrement(true).setPortCount(50);
            config.getNetworkConfig().getJoin().getTcpIpConfig().setMembers(List.of("127.0.0.1"));
            member = Hazelcast.newHazelcastInstance(config);
        }
        return member;
    }

    private static WebArchive war() {
        int port = member().getCluster().getLocalMember().getAddress().getPort();
        return Deployments.war("external", Deployments.contractConfig(Map.of(
                "tollgate.hazelcast.jndi-name", "tollgate/no-such-instance",
                "tollgate.hazelcast.client.addresses", "127.0.0.1:" + port,
                "tollgate.hazelcast.cluster-name", CLUSTER)));
    }

    @Deployment(name = "a", order = 1, testable = false)
    @TargetsContainer("node-a")
    static WebArchive a() {
        return war();
    }

    @Deployment(name = "b", order = 2, testable = false)
    @TargetsContainer("node-b")
    static WebArchive b() {
        return war();
    }

    @ArquillianResource
    @OperateOnDeployment("a")
    URL a;

    @ArquillianResource
    @OperateOnDeployment("b")
    URL b;

    @AfterAll
    static void stopMember() {
        if (member != null) {
            member.shutdown();
        }
    }

    @Test
    void twoInstancesAsClientsShareTheClustersBuckets() {
        String key = "key-" + UUID.randomUUID();
        URL[] nodes = {a, b, a};
        for (URL node : nodes) {
            HttpResponse<String> ok = get(node, "api/search?q=tea", "X-Api-Key", key);
            assertEquals(200, ok.statusCode(), node + ": " + describe(ok));
        }
        for (URL node : List.of(b, a)) {
            HttpResponse<String> denied = get(node, "api/search?q=tea", "X-Api-Key", key);
            assertEquals(429, denied.statusCode(), node + ": " + describe(denied));
            assertTrue(denied.headers().firstValue("RateLimit").isPresent(), "decided by the store: " + describe(denied));
        }
        long buckets = member.getDistributedObjects().stream()
                .filter(object -> object instanceof IMap<?, ?> && object.getName().startsWith("tollgate-buckets"))
                .mapToLong(object -> ((IMap<?, ?>) object).size()).sum();
        assertTrue(buckets > 0, "the buckets are in the external cluster's maps");
    }
}
