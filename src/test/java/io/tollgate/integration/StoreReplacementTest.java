package io.tollgate.integration;

import static io.tollgate.testing.Http.header;
import static io.tollgate.testing.Http.remaining;
import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.tollgate.RateLimiter;
import io.tollgate.app.SearchResource;
import io.tollgate.testing.Await;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.TestApp;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Tollgate's own Hazelcast member that shuts down while the application runs (killed from inside, as a failing member
 * or an operator's mistake would) is replaced by a new one: until then every rule answers by its policy, and then the
 * limiter decides by the store again, without a redeploy. Closing the application stops the new member too.
 */
@Tag("hazelcast")
@Isolated
class StoreReplacementTest {

    @Test
    void anEmbeddedMemberThatShutsDownIsReplacedAndTheLimiterIsBackWithoutARedeploy() throws Exception {
        int port = HazelcastTestCluster.freePorts(1).get(0);
        Set<HazelcastInstance> before = new HashSet<>(Hazelcast.getAllHazelcastInstances());
        try (TestApp app = TestApp.builder().beans(SearchResource.class)
                .property("tollgate.rules.search.rate", "1/1h")
                .property("tollgate.rules.search.burst", "2")
                .property("tollgate.rules.search.on-store-failure", "deny")
                .property("tollgate.hazelcast.port", Integer.toString(port))
                .property("tollgate.hazelcast.members", "127.0.0.1:" + port)
                .property("tollgate.hazelcast.cluster-name", "tollgate-test-" + UUID.randomUUID())
                .start()) {
            assertThat(remaining(app.get("search?q=a"))).isEqualTo(1);
            HazelcastInstance first = started(before);
            first.getLifecycleService().terminate();

            List<String> whileGone = new CopyOnWriteArrayList<>();
            Await.until("the limiter deciding by a new member", Duration.ofSeconds(60), () -> {
                HttpResponse<String> answer = get(app, "search?q=b");
                boolean decided = header(answer, "RateLimit") != null;
                if (!decided) {
                    whileGone.add(answer.statusCode() + " " + header(answer, "Content-Type"));
                }
                return decided;
            });
            HazelcastInstance second = started(before);
            assertThat(second).isNotSameAs(first);
            assertThat(second.getCluster().getLocalMember().getAddress().getPort()).isEqualTo(port);
            assertThat(whileGone).as("answered by on-store-failure=deny meanwhile")
                    .allSatisfy(line -> assertThat(line).isEqualTo("429 application/problem+json"));
            // the first member's buckets went with it: a new bucket, charged by the store again
            assertThat(app.bean(RateLimiter.class).tryAcquire("search", "c", 2).allowed()).isTrue();
            assertThat(app.bean(RateLimiter.class).tryAcquire("search", "c", 1).allowed()).isFalse();
            System.out.printf("store replacement: member terminated; %d request(s) answered by the policy until the new member "
                    + "decided%n", whileGone.size());
        }
        assertThat(new HashSet<>(Hazelcast.getAllHazelcastInstances())).as("the new member stopped with the application")
                .isEqualTo(before);
    }

    /**
     * A client configured to give up after 2 s without its cluster (a finite connect timeout in the user's client
     * file) shuts down when the cluster stops; Tollgate starts new clients, every one giving up again while the cluster
     * is away, and once it is back, one connects and the limiter decides by the store, without a redeploy.
     */
    @Test
    void aClientThatGaveUpIsReplacedUntilOneReachesTheClusterAgain() throws Exception {
        try (HazelcastTestCluster cluster = HazelcastTestCluster.start(1)) {
            java.nio.file.Path file = java.nio.file.Files.createTempFile("tollgate-client", ".yaml");
            java.nio.file.Files.writeString(file, String.join("\n",
                    "hazelcast-client:",
                    "  cluster-name: " + cluster.name(),
                    "  network:",
                    "    cluster-members:",
                    "      - " + cluster.address(0),
                    "  connection-strategy:",
                    "    connection-retry:",
                    "      cluster-connect-timeout-millis: 2000",
                    "      max-backoff-millis: 500",
                    ""));
            Set<HazelcastInstance> before = new HashSet<>(com.hazelcast.client.HazelcastClient.getAllHazelcastClients());
            try (TestApp app = TestApp.builder().beans(SearchResource.class)
                    .property("tollgate.rules.search.rate", "1/1h")
                    .property("tollgate.rules.search.burst", "2")
                    .property("tollgate.rules.search.on-store-failure", "deny")
                    .property("tollgate.hazelcast.client.config", file.toString())
                    .start()) {
                assertThat(remaining(app.get("search?q=a"))).isEqualTo(1);
                HazelcastInstance first = startedClient(before);
                cluster.stopMembers();
                Await.until("the client giving up", Duration.ofSeconds(60), () -> !first.getLifecycleService().isRunning());
                assertThat(header(get(app, "search?q=b"), "RateLimit")).as("the policy answers").isNull();
                cluster.startMembers(); // a restarted cluster: its buckets start full
                Await.until("a new client deciding by the store", Duration.ofSeconds(120),
                        () -> header(get(app, "search?q=c"), "RateLimit") != null);
                assertThat(startedClient(before)).isNotSameAs(first);
                System.out.println("store replacement: the client gave up while its cluster was stopped; a new one decides "
                        + "by the store since the cluster came back");
            } finally {
                java.nio.file.Files.deleteIfExists(file);
            }
        }
    }

    private static HazelcastInstance startedClient(Set<HazelcastInstance> before) {
        Set<HazelcastInstance> running = new HashSet<>(com.hazelcast.client.HazelcastClient.getAllHazelcastClients());
        running.removeAll(before);
        assertThat(running).as("Tollgate's client").hasSize(1);
        return running.iterator().next();
    }

    private static HazelcastInstance started(Set<HazelcastInstance> before) {
        Set<HazelcastInstance> running = new HashSet<>(Hazelcast.getAllHazelcastInstances());
        running.removeAll(before);
        assertThat(running).hasSize(1);
        return running.iterator().next();
    }

    private static HttpResponse<String> get(TestApp app, String path) {
        try {
            return app.get(path);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
