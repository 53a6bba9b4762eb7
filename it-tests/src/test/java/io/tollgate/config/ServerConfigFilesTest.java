package io.tollgate.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.client.config.YamlClientConfigBuilder;
import com.hazelcast.config.Config;
import com.hazelcast.config.EvictionPolicy;
import com.hazelcast.config.FileSystemYamlConfig;
import com.hazelcast.config.InMemoryFormat;
import com.hazelcast.config.InvalidConfigurationException;
import com.hazelcast.config.JavaSerializationFilterConfig;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.MapConfig;
import com.hazelcast.config.MaxSizePolicy;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.tollgate.internal.hazelcast.JavaSerializationFilter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The Hazelcast files of server-config/ as Hazelcast reads them (its YAML loader validates against its
 * schema), and a member and a client started from them find each other on 127.0.0.1. They have no
 * cluster name of their own: it is given as {@code tollgate.hazelcast.cluster-name}.
 */
class ServerConfigFilesTest {

    private static final Path MEMBER = Path.of("../server-config/hazelcast.yaml");
    private static final Path CLIENT = Path.of("../server-config/hazelcast-client.yaml");
    private static final int TOLLGATE_FACTORY_ID = 0x746F6C6C;

    /** The variables the files are read with: the system properties and the cluster name. */
    private static Properties named(String cluster) {
        Properties variables = new Properties();
        variables.putAll(System.getProperties());
        variables.setProperty("tollgate.hazelcast.cluster-name", cluster);
        return variables;
    }

    @Test
    void neitherFileLoadsWithoutAClusterName() {
        assertThrows(InvalidConfigurationException.class, () -> new FileSystemYamlConfig(MEMBER.toFile()));
        assertThrows(InvalidConfigurationException.class, () -> new YamlClientConfigBuilder(CLIENT.toFile()).build());
    }

    @Test
    void theMemberConfigurationKeepsTollgatesMapAsTheReadmeSays() throws Exception {
        Config config = new FileSystemYamlConfig(MEMBER.toFile(), named("a-secret"));
        assertEquals("a-secret", config.getClusterName());
        assertEquals("false", config.getProperty("hazelcast.logging.details.enabled"));
        JoinConfig join = config.getNetworkConfig().getJoin();
        assertFalse(join.getMulticastConfig().isEnabled());
        assertFalse(join.getAutoDetectionConfig().isEnabled());
        assertTrue(join.getTcpIpConfig().isEnabled());
        assertEquals(List.of("127.0.0.1:5701", "127.0.0.1:5702", "127.0.0.1:5703"), join.getTcpIpConfig().getMembers());
        assertTrue(config.getNetworkConfig().getInterfaces().isEnabled());
        assertEquals(List.of("127.0.0.1"), List.copyOf(config.getNetworkConfig().getInterfaces().getInterfaces()));
        assertEquals("false", config.getProperty("hazelcast.socket.bind.any"));

        assertEquals("10", config.getProperty("hazelcast.max.no.heartbeat.seconds"));
        assertEquals("5", config.getProperty("hazelcast.merge.next.run.delay.seconds"));
        for (String name : List.of("tollgate-buckets", "tollgate-buckets-shop")) {
            assertEquals("io.tollgate.hazelcast.TollgateMergePolicy", config.getMapConfig(name).getMergePolicyConfig().getPolicy(),
                    "the merge policy of map " + name);
        }
        Class.forName("io.tollgate.hazelcast.TollgateMergePolicy"); // the class it names exists
        MapConfig map = config.getMapConfig("tollgate-buckets-shop");
        assertEquals(1, map.getBackupCount());
        assertEquals(InMemoryFormat.OBJECT, map.getInMemoryFormat());
        assertEquals(EvictionPolicy.LRU, map.getEvictionConfig().getEvictionPolicy());
        assertEquals(MaxSizePolicy.PER_NODE, map.getEvictionConfig().getMaxSizePolicy());
        assertEquals(1_000_000, map.getEvictionConfig().getSize());

        assertEquals(TOLLGATE_FACTORY_ID, 1953459308);
        assertEquals("io.tollgate.hazelcast.TollgateSerialization",
                config.getSerializationConfig().getDataSerializableFactoryClasses().get(TOLLGATE_FACTORY_ID));
        Class.forName("io.tollgate.hazelcast.TollgateSerialization"); // the class it names exists

        JavaSerializationFilterConfig filter = config.getSerializationConfig().getJavaSerializationFilterConfig();
        JavaSerializationFilterConfig tollgates = JavaSerializationFilter.create();
        assertTrue(filter.isDefaultsDisabled());
        assertEquals(tollgates.getWhitelist().getPrefixes(), filter.getWhitelist().getPrefixes());
        assertEquals(tollgates.getWhitelist().getPackages(), filter.getWhitelist().getPackages());
        assertEquals(tollgates.getWhitelist().getClasses(), filter.getWhitelist().getClasses());
        assertEquals(tollgates.getBlacklist().getPrefixes(), filter.getBlacklist().getPrefixes());
    }

    @Test
    void theClientConfigurationPointsAtThatCluster() throws Exception {
        YamlClientConfigBuilder builder = new YamlClientConfigBuilder(CLIENT.toFile());
        builder.setProperties(named("a-secret"));
        ClientConfig config = builder.build();
        assertEquals("a-secret", config.getClusterName());
        assertEquals("false", config.getProperty("hazelcast.logging.details.enabled"));
        assertEquals(List.of("127.0.0.1:5701", "127.0.0.1:5702", "127.0.0.1:5703"), config.getNetworkConfig().getAddresses());
        assertEquals("io.tollgate.hazelcast.TollgateSerialization",
                config.getSerializationConfig().getDataSerializableFactoryClasses().get(TOLLGATE_FACTORY_ID));
    }

    @Test
    void aMemberAndAClientStartedFromTheFilesWorkTogether() throws Exception {
        // the files as they are, on ports of this test's own and a cluster name of its own
        String cluster = "server-config-test-" + UUID.randomUUID();
        Config memberConfig = new FileSystemYamlConfig(MEMBER.toFile(), named(cluster));
        memberConfig.getNetworkConfig().setPort(5921).setPortAutoIncrement(true).setPortCount(50);
        memberConfig.getNetworkConfig().getJoin().getTcpIpConfig().setMembers(List.of("127.0.0.1"));
        memberConfig.setProperty("hazelcast.shutdownhook.enabled", "false");
        HazelcastInstance member = Hazelcast.newHazelcastInstance(memberConfig);
        try {
            YamlClientConfigBuilder builder = new YamlClientConfigBuilder(CLIENT.toFile());
            builder.setProperties(named(cluster));
            ClientConfig clientConfig = builder.build();
            clientConfig.getNetworkConfig().setAddresses(
                    List.of("127.0.0.1:" + member.getCluster().getLocalMember().getAddress().getPort()));
            clientConfig.getConnectionStrategyConfig().setAsyncStart(false);
            HazelcastInstance client = HazelcastClient.newHazelcastClient(clientConfig);
            try {
                IMap<String, long[]> buckets = client.getMap("tollgate-buckets");
                buckets.put("k", new long[] {1, 2, 3});
                assertEquals(3, buckets.get("k")[2]);
                assertEquals(InMemoryFormat.OBJECT, member.getConfig().getMapConfig("tollgate-buckets").getInMemoryFormat());
                assertEquals("127.0.0.1", member.getCluster().getLocalMember().getAddress().getHost());
            } finally {
                client.shutdown();
            }
        } finally {
            member.shutdown();
        }
        assertTrue(Files.exists(MEMBER));
    }
}
