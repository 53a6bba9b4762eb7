package io.tollgate.integration;

import static io.tollgate.testing.Http.remaining;
import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.tollgate.app.SearchResource;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.SharedCluster;
import io.tollgate.testing.TestApp;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Isolated;

/** Where the buckets live: an embedded member (the default), a client to a cluster, or this JVM's memory. */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
@Isolated
class HazelcastSourcesTest {

    private static TestApp.Builder search() {
        return TestApp.builder().beans(SearchResource.class)
                .property("tollgate.rules.search.rate", "1/1h")
                .property("tollgate.rules.search.burst", "2");
    }

    private static Set<HazelcastInstance> running() {
        return new HashSet<>(Hazelcast.getAllHazelcastInstances());
    }

    @Test
    void byDefaultTollgateStartsAnEmbeddedMemberOnLoopbackAndStopsItWithTheApplication() throws Exception {
        int port = HazelcastTestCluster.freePorts(1).get(0);
        Set<HazelcastInstance> before = running();
        try (TestApp app = search().property("tollgate.hazelcast.port", Integer.toString(port))
                .property("tollgate.hazelcast.members", "127.0.0.1:" + port)
                .property("tollgate.hazelcast.cluster-name", "tollgate-test-" + UUID.randomUUID())
                .start()) {
            Set<HazelcastInstance> started = running();
            started.removeAll(before);
            assertThat(started).hasSize(1);
            HazelcastInstance member = started.iterator().next();
            assertThat(member.getName()).startsWith("tollgate-");
            assertThat(member.getCluster().getLocalMember().getAddress().getHost()).isEqualTo("127.0.0.1");
            assertThat(member.getCluster().getLocalMember().getAddress().getPort()).isEqualTo(port);
            assertThat(member.getConfig().getNetworkConfig().getJoin().getMulticastConfig().isEnabled()).isFalse();
            assertThat(member.getConfig().getMapConfig("tollgate-buckets").getBackupCount()).isEqualTo(1);
            assertThat(remaining(app.get("search?q=a"))).isEqualTo(1);
            assertThat(remaining(app.get("search?q=b"))).isZero();
            assertThat(app.get("search?q=c").statusCode()).isEqualTo(429);
            assertThat(member.getMap("tollgate-buckets").size()).isEqualTo(1);
        }
        assertThat(running()).isEqualTo(before);
    }

    @Test
    void asAClientOfAnExternalCluster(HazelcastTestCluster cluster) throws Exception {
        cluster.clock().set(2_700_000_000L * 1_000_000);
        String map = "client-" + UUID.randomUUID();
        try (TestApp app = search().property("tollgate.hazelcast.client.addresses", cluster.address(0) + "," + cluster.address(1))
                .property("tollgate.hazelcast.cluster-name", cluster.name())
                .property("tollgate.hazelcast.map", map)
                .start()) {
            assertThat(remaining(app.get("search?q=a"))).isEqualTo(1);
            assertThat(remaining(app.get("search?q=b"))).isZero();
            assertThat(app.get("search?q=c").statusCode()).isEqualTo(429);
            assertThat(cluster.member(2).getMap(map).size()).isEqualTo(1);
            assertThat(cluster.member(2).getConfig().getMapConfig(map).getBackupCount()).isEqualTo(1);
        }
    }

    @Test
    void inMemoryForASingleInstance() throws Exception {
        try (TestApp app = search().property("tollgate.store", "memory").start()) {
            assertThat(remaining(app.get("search?q=a"))).isEqualTo(1);
            assertThat(remaining(app.get("search?q=b"))).isZero();
            assertThat(app.get("search?q=c").statusCode()).isEqualTo(429);
        }
    }
}
