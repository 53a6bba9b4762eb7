package io.tollgate.integration;

import static io.tollgate.testing.Http.header;
import static io.tollgate.testing.Http.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.Decision;
import io.tollgate.RateLimiter;
import io.tollgate.app.ItemsResource;
import io.tollgate.app.SearchResource;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.TestApp;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * With the store gone, each rule answers by its {@code on-store-failure} policy: fail open lets
 * requests through uncharged, fail closed denies them with Retry-After 1.
 */
class StoreFailureTest {

    private static TestApp.Builder app() {
        return TestApp.builder().beans(SearchResource.class, ItemsResource.class)
                .property("tollgate.rules.search.rate", "1/1h")
                .property("tollgate.rules.search.burst", "1")
                .property("tollgate.rules.search.on-store-failure", "allow")
                .property("tollgate.rules.upload.rate", "1/1h")
                .property("tollgate.rules.upload.burst", "1")
                .property("tollgate.rules.upload.on-store-failure", "deny")
                .property("tollgate.store.timeout", "200ms");
    }

    private static void assertFailureBehaviour(TestApp app) throws Exception {
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> open = app.get("search?q=" + i);
            assertThat(open.statusCode()).as("fail open").isEqualTo(200);
            assertThat(header(open, "RateLimit")).isNull();

            HttpResponse<String> closed = app.post("items");
            assertThat(closed.statusCode()).as("fail closed").isEqualTo(429);
            // one second, plus the same per-client jitter as any denial: clients do not return in one herd
            assertThat(header(closed, "Retry-After")).isIn("1", "2");
            assertThat(json(closed).getString("detail")).isEqualTo("Rate limit rule 'upload' could not be checked and denies requests until it can.");
        }
        RateLimiter limiter = app.bean(RateLimiter.class);
        Decision decision = limiter.tryAcquire("search", "k");
        assertThat(decision.allowed()).isTrue();
        assertThat(decision.storeUnavailable()).isTrue();
        Decision async = limiter.tryAcquireAsync("upload", "k", 1).toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertThat(async.allowed()).isFalse();
        assertThat(async.storeUnavailable()).isTrue();
    }

    @Test
    void aMemberThatIsGoneFailsOpenOrClosedAsConfigured() throws Exception {
        HazelcastTestCluster cluster = HazelcastTestCluster.start(1);
        try (TestApp app = app().hazelcast(cluster.member(0)).start()) {
            assertThat(app.get("search?q=before").statusCode()).isEqualTo(200);
            assertThat(app.get("search?q=before").statusCode()).isEqualTo(429);
            cluster.close();
            assertFailureBehaviour(app);
        } finally {
            cluster.close();
        }
    }

    @Test
    void aClientWhoseClusterIsDownFailsOpenOrClosedAsConfigured() throws Exception {
        HazelcastTestCluster cluster = HazelcastTestCluster.start(1);
        try (TestApp app = app().property("tollgate.hazelcast.client.addresses", String.join(",", List.of(cluster.address(0))))
                .property("tollgate.hazelcast.cluster-name", cluster.name())
                .start()) {
            assertThat(app.post("items").statusCode()).isEqualTo(200);
            assertThat(app.post("items").statusCode()).isEqualTo(429);
            assertThat(json(app.post("items")).getString("detail")).startsWith("Rate limit rule 'upload' allows 1 at once");
            cluster.close();
            assertFailureBehaviour(app);
        } finally {
            cluster.close();
        }
    }
}
