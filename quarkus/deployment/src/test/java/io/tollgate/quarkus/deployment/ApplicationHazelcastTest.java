package io.tollgate.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.quarkus.test.QuarkusUnitTest;
import io.quarkus.test.common.http.TestHTTPResource;
import io.tollgate.RateLimited;
import io.tollgate.TollgateHazelcast;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A Quarkus application (in this JVM) whose own Hazelcast member, a {@code @TollgateHazelcast} bean, is Tollgate's
 * store: a key gets the burst, then 429s, and its bucket is in that member's map.
 */
class ApplicationHazelcastTest {

    @RegisterExtension
    static final QuarkusUnitTest APPLICATION = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(SearchResource.class, OwnHazelcast.class))
            .overrideConfigKey("tollgate.rules.search.rate", "1/1h")
            .overrideConfigKey("tollgate.rules.search.burst", "2")
            .overrideConfigKey("tollgate.rules.search.key", "header:X-Api-Key")
            .overrideConfigKey("quarkus.http.host", "127.0.0.1")
            .overrideConfigKey("quarkus.http.test-port", "0");

    @Path("search")
    public static class SearchResource {
        @GET
        @RateLimited("search")
        public String search() {
            return "results";
        }
    }

    /** The application's member: on 127.0.0.1, alone, a cluster name of its own. */
    @ApplicationScoped
    public static class OwnHazelcast {
        static volatile HazelcastInstance member;

        @Produces
        @TollgateHazelcast
        @Singleton
        HazelcastInstance member() {
            Config config = new Config().setClusterName("quarkus-own-" + UUID.randomUUID());
            config.setProperty("hazelcast.phone.home.enabled", "false");
            config.getNetworkConfig().setPort(5961).setPortAutoIncrement(true).setPortCount(50);
            config.getNetworkConfig().getInterfaces().setEnabled(true).addInterface("127.0.0.1");
            JoinConfig join = config.getNetworkConfig().getJoin();
            join.getMulticastConfig().setEnabled(false);
            join.getAutoDetectionConfig().setEnabled(false);
            join.getTcpIpConfig().setEnabled(true).addMember("127.0.0.1");
            member = Hazelcast.newHazelcastInstance(config);
            return member;
        }

        @PreDestroy
        void stop() {
            if (member != null) {
                member.shutdown();
            }
        }
    }

    @TestHTTPResource("search")
    URL search;

    @Test
    void theApplicationsOwnMemberKeepsTheBuckets() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest request = HttpRequest.newBuilder(URI.create(search.toString())).header("X-Api-Key", "k-" + UUID.randomUUID())
                .GET().build();
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            statuses.add(http.send(request, HttpResponse.BodyHandlers.ofString()).statusCode());
        }
        assertThat(statuses).containsExactly(200, 200, 429, 429);
        long buckets = OwnHazelcast.member.getDistributedObjects().stream()
                .filter(object -> object instanceof IMap<?, ?> && object.getName().startsWith("tollgate-buckets"))
                .mapToLong(object -> ((IMap<?, ?>) object).size()).sum();
        assertThat(buckets).as("buckets in the application's member").isPositive();
    }
}
