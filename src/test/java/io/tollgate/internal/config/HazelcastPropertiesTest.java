package io.tollgate.internal.config;

import static io.tollgate.internal.config.ConfigTesting.problems;
import static io.tollgate.internal.config.ConfigTesting.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code tollgate.hazelcast.*} properties: addresses, interfaces, configuration files, client mode.
 */
class HazelcastPropertiesTest {

    @Test
    void aClientConfigFileAloneMeansClientModeAndAnEmptyJndiNameMeansNone() {
        HazelcastSettings hz = read("tollgate.hazelcast.client.config", "/etc/c.yaml",
                "tollgate.hazelcast.jndi-name", " ",
                "tollgate.hazelcast.map", "  ").hazelcast();
        assertThat(hz.clientMode()).isTrue();
        assertThat(hz.clientAddresses()).isEmpty();
        assertThat(hz.jndiName()).isEmpty();
        assertThat(hz.mapName()).isEqualTo("tollgate-buckets");
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(delimiter = '|', value = {
        "tollgate.hazelcast.members           | host:port     | host:port",
        "tollgate.hazelcast.members           | [::1]:5701    | [::1]:5701",
        "tollgate.hazelcast.members           | a:1:2         | a:1:2",
        "tollgate.hazelcast.members           | h:123456      | h:123456",
    })
    void refusesAMemberAddressThatIsNotHostOrHostAndPort(String property, String value, String address) {
        assertThat(problems(property, value)).containsExactly(
                property + " = '" + value + "': '" + address + "' is not host or host:port");
    }

    @Test
    void refusesAClientAddressThatIsNotHostOrHostAndPort() {
        assertThat(problems("tollgate.hazelcast.client.addresses", "hz1:x", "tollgate.hazelcast.cluster-name", "prod")).containsExactly(
                "tollgate.hazelcast.client.addresses = 'hz1:x': 'hz1:x' is not host or host:port");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"10.0.0.*", "10.0.0.*:5701", "10.0.0.1-3", "10.0.0.1-3:5701"})
    void refusesHazelcastAddressPatternsInTheMemberList(String pattern) {
        assertThat(problems("tollgate.hazelcast.members", pattern)).containsExactly(
                "tollgate.hazelcast.members = '" + pattern + "': '" + pattern + "' is not host or host:port");
    }

    @Test
    void aClientToAnExternalClusterNeedsThatClustersName() {
        assertThat(problems("tollgate.hazelcast.client.addresses", "hz1:5701")).containsExactly(
                "tollgate.hazelcast.cluster-name is not set: a client to an external cluster (tollgate.hazelcast.client.addresses) "
                        + "needs that cluster's name; Tollgate's own default name is private to one OS user on one host, and no "
                        + "external cluster has it");
        assertThat(read("tollgate.hazelcast.client.addresses", "hz1:5701", "tollgate.hazelcast.cluster-name", "prod")
                .hazelcast().clusterName()).contains("prod");
        assertThat(read("tollgate.hazelcast.client.config", "/etc/client.yaml").hazelcast().clusterName())
                .as("a client configuration file names its cluster itself").isEmpty();
    }

    @Test
    void namesEveryBadMemberAddressWithTheWholeList() {
        assertThat(problems("tollgate.hazelcast.members", "a:1,bad host,c:2,d:e")).containsExactly(
                "tollgate.hazelcast.members = 'a:1,bad host,c:2,d:e': 'bad host' is not host or host:port",
                "tollgate.hazelcast.members = 'a:1,bad host,c:2,d:e': 'd:e' is not host or host:port");
    }

    /** BUG: five digits pass the member-address check even when they are not a port (1..65535). */
    @Test
    void refusesAMemberPortOutsideOneTo65535() {
        assertThatThrownBy(() -> read("tollgate.hazelcast.members", "hz1:99999"))
                .isInstanceOf(InvalidConfigurationException.class)
                .satisfies(e -> assertThat(((InvalidConfigurationException) e).problems()).singleElement()
                        .satisfies(line -> assertThat(line).startsWith("tollgate.hazelcast.members = 'hz1:99999': ")));
    }

    @Test
    void freeTextPropertiesTakeAnyText() {
        String odd = " é 名前 /x:y,z@1 ";
        HazelcastSettings hz = read("tollgate.hazelcast.map", odd, "tollgate.hazelcast.jndi-name", odd,
                "tollgate.hazelcast.cluster-name", odd).hazelcast();
        assertThat(hz.mapName()).isEqualTo(odd.trim());
        assertThat(hz.jndiName()).contains(odd.trim());
        assertThat(hz.clusterName()).contains(odd.trim());
    }

    @ParameterizedTest(name = "interface {0}")
    @ValueSource(strings = {"127.0.0.1", "10.0.0.*", "10.3.10.4-18", "*.*.*.*", "fd00::1", "fe80:0:0:0:45c5:47ee:fe15:*", "::1"})
    void readsEveryInterfaceHazelcastTakes(String address) {
        assertThat(read("tollgate.hazelcast.interface", " " + address + " ").hazelcast().bindInterface()).isEqualTo(address);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"/etc/hazelcast.yaml", "hazelcast.yml", "C:\\hz\\HAZELCAST.XML"})
    void readsHazelcastConfigurationFilesOfEveryKind(String file) {
        assertThat(read("tollgate.hazelcast.config", file).hazelcast().memberConfig()).contains(file);
        assertThat(read("tollgate.hazelcast.client.config", file).hazelcast().clientConfig()).contains(file);
    }

    @ParameterizedTest(name = "members {0}")
    @ValueSource(strings = {"198.18.0.1:5701,198.18.0.2:5701", "127.0.0.1:5701,hz2.example.invalid"})
    void membersOnOtherHostsNeedAConfiguredClusterName(String members) {
        String elsewhere = members.startsWith("127") ? "hz2.example.invalid" : "198.18.0.1:5701, 198.18.0.2:5701";
        assertThat(problems("tollgate.hazelcast.members", members)).containsExactly(
                "tollgate.hazelcast.cluster-name is not set: tollgate.hazelcast.members = '" + members + "' names " + elsewhere
                        + ", not on this host, and the name Tollgate makes up without one is private to one OS user on one host: "
                        + "each host would limit alone. Give every instance the same cluster name (it is the cluster's shared "
                        + "secret)");
        assertThat(read("tollgate.hazelcast.members", members, "tollgate.hazelcast.cluster-name", "shop").hazelcast().members())
                .hasSize(2);
        assertThat(read("tollgate.hazelcast.members", members, "tollgate.hazelcast.config", "/etc/hazelcast.yaml").hazelcast()
                .memberConfig()).as("a configuration file names its cluster itself").isPresent();
    }

    @ParameterizedTest(name = "members {0}")
    @ValueSource(strings = {"127.0.0.1:5701,127.0.0.1:5702", "localhost", "localhost:5702", "127.0.0.2"})
    void membersOnThisHostNeedNoClusterName(String members) {
        assertThat(read("tollgate.hazelcast.members", members).hazelcast().clusterName()).isEmpty();
    }

    @Test
    void kubernetesDiscoveryNeedsAConfiguredClusterName() {
        assertThat(problems("tollgate.hazelcast.kubernetes.service-dns", "tollgate.shop.svc.cluster.local")).containsExactly(
                "tollgate.hazelcast.cluster-name is not set: members found through tollgate.hazelcast.kubernetes.service-dns = "
                        + "'tollgate.shop.svc.cluster.local' run on other hosts, and the name Tollgate makes up without one is "
                        + "private to one OS user on one host: each host would limit alone. Give every instance the same "
                        + "cluster name (it is the cluster's shared secret)");
        assertThat(read("tollgate.hazelcast.kubernetes.service-dns", " tollgate.shop.svc.cluster.local ",
                "tollgate.hazelcast.cluster-name", "shop").hazelcast().kubernetesServiceDns()).contains("tollgate.shop.svc.cluster.local");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "shop                  | tollgate-buckets-shop",
        "Shop-1.4.2            | tollgate-buckets-shop",
        "orders-api-2.0-SNAPSHOT | tollgate-buckets-orders-api",
        "billing:3.1           | tollgate-buckets-billing",
        "my app (eu)           | tollgate-buckets-my-app-eu",
    })
    void eachApplicationHasItsOwnMapByDefaultWhateverItsVersion(String application, String map) {
        assertThat(read().hazelcast().forApplication(java.util.Optional.of(application)).mapName()).isEqualTo(map);
    }

    @Test
    void aConfiguredMapOrAnUnknownApplicationKeepsItsMap() {
        assertThat(read("tollgate.hazelcast.map", "shared").hazelcast().forApplication(java.util.Optional.of("shop")).mapName())
                .isEqualTo("shared");
        assertThat(read().hazelcast().forApplication(java.util.Optional.empty()).mapName()).isEqualTo("tollgate-buckets");
        assertThat(read().hazelcast().forApplication(java.util.Optional.of("-1.0")).mapName()).isEqualTo("tollgate-buckets");
    }

    @Test
    void aClusterOfSeveralMembersIsMeaninglessForTheInMemoryStore() {
        assertThat(problems("tollgate.store", "memory", "tollgate.cluster.min-members", "2", "tollgate.cluster.quorum", "2"))
                .containsExactly("tollgate.cluster.min-members = '2': tollgate.store=memory keeps the buckets in this JVM alone, one member",
                        "tollgate.cluster.quorum = '2': tollgate.store=memory keeps the buckets in this JVM alone, one member");
        ClusterSettings cluster = read("tollgate.cluster.min-members", "3", "tollgate.cluster.quorum", "2").cluster();
        assertThat(cluster).isEqualTo(new ClusterSettings(3, 2));
        assertThat(read().cluster()).isEqualTo(ClusterSettings.DEFAULT);
    }
}
