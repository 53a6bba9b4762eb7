package io.tollgate.internal.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.MapConfig;
import com.hazelcast.instance.EndpointQualifier;
import io.tollgate.internal.config.HazelcastSettings;
import io.tollgate.testing.TestRules;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The member and client configuration {@link HazelcastStores} builds from Tollgate's properties,
 * and what it adds to a configuration file of the user's (its own network settings are kept).
 */
@Isolated
class HazelcastConfigTest {

    private static final MapConfig MAP = BucketMapConfig.create(BucketMapConfig.DEFAULT_MAP_NAME, 1_000, 1);

    @TempDir
    Path files;

    @Test
    void tollgatesMemberHasAMemberEndpointOnlyOnItsInterfaceAndJoinsWithoutMulticast() throws Exception {
        Config config = HazelcastStores.memberConfig(settings("tollgate.hazelcast.interface", "127.0.0.1",
                "tollgate.hazelcast.port", "6100", "tollgate.hazelcast.members", "127.0.0.1:6100,127.0.0.1:6101"), MAP);
        assertThat(config.getAdvancedNetworkConfig().isEnabled()).isTrue();
        assertThat(config.getAdvancedNetworkConfig().getEndpointConfigs()).containsOnlyKeys(EndpointQualifier.MEMBER);
        var member = config.getAdvancedNetworkConfig().getEndpointConfigs().get(EndpointQualifier.MEMBER);
        assertThat(member.getInterfaces().isEnabled()).isTrue();
        assertThat(member.getInterfaces().getInterfaces()).containsExactly("127.0.0.1");
        assertThat(((com.hazelcast.config.ServerSocketEndpointConfig) member).getPort()).isEqualTo(6100);
        JoinConfig join = config.getAdvancedNetworkConfig().getJoin();
        assertThat(join.getMulticastConfig().isEnabled()).isFalse();
        assertThat(join.getAutoDetectionConfig().isEnabled()).isFalse();
        assertThat(join.getTcpIpConfig().isEnabled()).as("Tollgate's discovery tries the member list instead").isFalse();
        assertThat(join.getDiscoveryConfig().getDiscoveryStrategyConfigs()).singleElement()
                .satisfies(d -> assertThat(d.getDiscoveryStrategyFactory()).isInstanceOf(MemberDiscovery.class));
        assertThat(config.getProperty("hazelcast.socket.bind.any")).isEqualTo("false");
        assertThat(config.getProperty("hazelcast.logging.details.enabled")).isEqualTo("false");
        assertThat(config.getSerializationConfig().getJavaSerializationFilterConfig().isDefaultsDisabled()).isTrue();
    }

    @Test
    void aMemberConfigurationFileKeepsItsNetworkAndNamesItsClusterFromTheProperty() throws Exception {
        Path file = Files.writeString(files.resolve("hazelcast.yaml"), String.join("\n",
                "hazelcast:",
                "  cluster-name: ${tollgate.hazelcast.cluster-name}",
                "  network:",
                "    port:",
                "      port: 6200",
                "    join:",
                "      multicast:",
                "        enabled: false",
                "      tcp-ip:",
                "        enabled: true",
                "        member-list:",
                "          - 127.0.0.1:6200",
                ""));
        Config config = HazelcastStores.memberConfig(settings("tollgate.hazelcast.config", file.toString(),
                "tollgate.hazelcast.cluster-name", "from-config"), MAP);
        assertThat(config.getClusterName()).isEqualTo("from-config");
        assertThat(config.getAdvancedNetworkConfig().isEnabled()).isFalse();
        assertThat(config.getNetworkConfig().getPort()).isEqualTo(6200);
        assertThat(config.getNetworkConfig().getJoin().getTcpIpConfig().getMembers()).containsExactly("127.0.0.1:6200");
        assertThat(config.getProperty("hazelcast.logging.details.enabled")).isNull();
        assertThat(config.getSerializationConfig().getJavaSerializationFilterConfig())
                .as("a file without a filter of its own gets Tollgate's").isNotNull();
    }

    @Test
    void aFileWithAFilterOfItsOwnKeepsIt() throws Exception {
        Path file = Files.writeString(files.resolve("hazelcast-client.yaml"), String.join("\n",
                "hazelcast-client:",
                "  cluster-name: ${tollgate.hazelcast.cluster-name}",
                "  serialization:",
                "    java-serialization-filter:",
                "      defaults-disabled: false",
                ""));
        ClientConfig config = HazelcastStores.clientConfig(settings("tollgate.hazelcast.client.config", file.toString(),
                "tollgate.hazelcast.cluster-name", "shared-secret"));
        assertThat(config.getClusterName()).isEqualTo("shared-secret");
        assertThat(config.getSerializationConfig().getJavaSerializationFilterConfig().isDefaultsDisabled()).isFalse();
    }

    @Test
    void aFileThatNamesNoClusterIsWarnedOfHazelcastsDefaultName() throws Exception {
        Path client = Files.writeString(files.resolve("client.yaml"), "hazelcast-client:\n  instance-name: unnamed\n");
        Path member = Files.writeString(files.resolve("member.yaml"), "hazelcast:\n  instance-name: unnamed\n");
        List<String> warnings = new ArrayList<>();
        Logger log = Logger.getLogger(HazelcastStores.class.getName());
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                    warnings.add(record.getMessage());
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        log.addHandler(capture);
        try {
            assertThat(HazelcastStores.clientConfig(settings("tollgate.hazelcast.client.config", client.toString())).getClusterName())
                    .isEqualTo("dev");
            assertThat(HazelcastStores.memberConfig(settings("tollgate.hazelcast.config", member.toString()), MAP).getClusterName())
                    .isEqualTo("dev");
        } finally {
            log.removeHandler(capture);
        }
        assertThat(warnings).containsExactly(
                "The Hazelcast configuration file of tollgate.hazelcast.client.config names no cluster, so Hazelcast's default 'dev' "
                        + "is used, a name anyone can guess: give the cluster a name of its own (see \"Security\" in Tollgate's README)",
                "The Hazelcast configuration file of tollgate.hazelcast.config names no cluster, so Hazelcast's default 'dev' "
                        + "is used, a name anyone can guess: give the cluster a name of its own (see \"Security\" in Tollgate's README)");
    }

    @Test
    void aFileThatNeedsTheClusterNameNamesTheSettingThatIsMissing() throws Exception {
        Path client = Files.writeString(files.resolve("client.yaml"), String.join("\n",
                "hazelcast-client:",
                "  config-replacers:",
                "    fail-if-value-missing: true",
                "  cluster-name: ${tollgate.hazelcast.cluster-name}",
                ""));
        assertThatThrownBy(() -> HazelcastStores.clientConfig(settings("tollgate.hazelcast.client.config", client.toString())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("tollgate.hazelcast.client.config = '" + client + "': Could not find a replacement for "
                        + "'${tollgate.hazelcast.cluster-name}' on node 'cluster-name'; set tollgate.hazelcast.cluster-name to the "
                        + "cluster's name");
    }

    @Test
    void theClientOfTheAddressesUsesTheConfiguredNameAndTheFilter() throws Exception {
        ClientConfig config = HazelcastStores.clientConfig(settings("tollgate.hazelcast.client.addresses", "127.0.0.1:6300",
                "tollgate.hazelcast.cluster-name", "external"));
        assertThat(config.getClusterName()).isEqualTo("external");
        assertThat(config.getNetworkConfig().getAddresses()).containsExactly("127.0.0.1:6300");
        assertThat(config.getProperty("hazelcast.logging.details.enabled")).isEqualTo("false");
        assertThat(config.getSerializationConfig().getJavaSerializationFilterConfig().isDefaultsDisabled()).isTrue();
    }

    @Test
    void theFilterAllowsWhatErrorResponsesCarryAndNothingElse() {
        var filter = JavaSerializationFilter.create();
        assertThat(filter.isDefaultsDisabled()).isTrue();
        for (String allowed : List.of("java.lang.IllegalStateException", "java.lang.StackTraceElement",
                "[Ljava.lang.StackTraceElement;", "java.util.Collections$EmptyList", "java.util.ArrayList",
                "java.io.UncheckedIOException", "java.util.concurrent.TimeoutException", "java.net.ConnectException",
                "com.hazelcast.spi.exception.WrongTargetException", "com.hazelcast.core.MemberLeftException",
                "com.hazelcast.version.MemberVersion", "java.util.UUID", "java.util.Properties",
                "io.tollgate.internal.core.InvalidDefinitionException")) {
            assertThat(filter.getWhitelist().isListed(allowed)).as(allowed).isTrue();
        }
        for (String refused : List.of("java.util.HashMap", "java.util.HashSet", "java.util.PriorityQueue", "java.net.URL",
                "java.security.SignedObject", "java.lang.reflect.Proxy", "javax.management.BadAttributeValueExpException",
                "org.apache.commons.collections.functors.InvokerTransformer", "example.outsider.Gadget",
                "com.sun.org.apache.xalan.internal.xsltc.trax.TemplatesImpl", "[Ljava.lang.Object;")) {
            assertThat(filter.getWhitelist().isListed(refused)).as(refused).isFalse();
        }
        for (String bundled : List.of("com.hazelcast.shaded.org.json.JSONObject",
                "com.hazelcast.shaded.com.fasterxml.jackson.databind.ObjectMapper",
                "com.hazelcast.shaded.org.objenesis.ObjenesisSerializer", "com.hazelcast.shaded.com.zaxxer.hikari.HikariConfig")) {
            assertThat(filter.getBlacklist().isListed(bundled)).as(bundled + ": bundled by Hazelcast, never sent").isTrue();
        }
    }

    /**
     * A member with the filter refuses a Java-serialized class Hazelcast bundles (its JSON library's), which the
     * list's {@code com.hazelcast.} alone would have taken, and still reads the exception of an error response.
     */
    @Test
    void aMemberRefusesTheLibrariesHazelcastBundles() throws Exception {
        var serialization = (com.hazelcast.internal.serialization.InternalSerializationService)
                new com.hazelcast.internal.serialization.impl.DefaultSerializationServiceBuilder()
                        .setConfig(new com.hazelcast.config.SerializationConfig()
                                .setJavaSerializationFilterConfig(JavaSerializationFilter.create()))
                        .build();
        try {
            Class<?> bundled = Class.forName("com.hazelcast.shaded.org.json.JSONException");
            Object thrown = bundled.getConstructor(String.class).newInstance("from another member");
            var data = serialization.toData(thrown);
            assertThatThrownBy(() -> serialization.toObject(data)).hasStackTraceContaining("com.hazelcast.shaded.org.json.JSONException");
            var error = serialization.toData(new IllegalStateException("an error response"));
            assertThat((Object) serialization.toObject(error)).isInstanceOf(IllegalStateException.class);
        } finally {
            serialization.dispose();
        }
    }

    private static HazelcastSettings settings(String... namesAndValues) {
        Map<String, String> properties = new HashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            properties.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return TestRules.read(properties).hazelcast();
    }
}
