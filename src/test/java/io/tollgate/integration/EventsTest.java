package io.tollgate.integration;

import static io.tollgate.testing.Http.header;
import static io.tollgate.testing.Http.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.Decision;
import io.tollgate.RateLimitDenied;
import io.tollgate.RateLimiter;
import io.tollgate.app.FailingObserver;
import io.tollgate.app.RecordedEvents;
import io.tollgate.app.SearchResource;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.SharedCluster;
import io.tollgate.testing.TestApp;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The application's CDI observers hear of every denial (shadow ones marked), with the rule, the key's hash
 * and the decision, synchronously and asynchronously; allowed requests fire nothing; an observer that throws
 * changes no answer.
 */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
class EventsTest {

    private HazelcastTestCluster cluster;
    private final String map = "events-" + UUID.randomUUID();

    @BeforeEach
    void stopTheClock(HazelcastTestCluster shared) {
        cluster = shared;
        cluster.clock().set(2_600_000_000L * 1_000_000);
    }

    private TestApp.Builder app(Class<?>... observers) {
        return TestApp.builder().beans(SearchResource.class).beans(observers).hazelcast(cluster.member(0))
                .property("tollgate.hazelcast.map", map)
                // exact retry-afters on the stopped clock: the denial cache would answer on this JVM's own clock
                .property("tollgate.denial-cache", "false")
                .property("tollgate.rules.search.rate", "1/1h")
                .property("tollgate.rules.search.burst", "2")
                .property("tollgate.rules.search.key", "header:X-Client");
    }

    /** The oracle: SHA-256 of the key's UTF-8, base64url without padding, as the README says. */
    private static String sha256(String key) throws Exception {
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
    }

    @Test
    void eachDenialIsOneEventWithTheRuleTheHashedKeyAndTheDecision() throws Exception {
        String client = "client-" + UUID.randomUUID();
        try (TestApp app = app(RecordedEvents.class).start()) {
            RecordedEvents events = app.bean(RecordedEvents.class);
            assertThat(app.get("search?q=1", "X-Client", client).statusCode()).isEqualTo(200);
            assertThat(app.get("search?q=2", "X-Client", client).statusCode()).isEqualTo(200);
            assertThat(events.denials()).as("allowed requests fire nothing").isEmpty();
            Instant before = Instant.now().minusSeconds(60);
            for (int i = 0; i < 3; i++) {
                HttpResponse<String> denied = app.get("search?q=x", "X-Client", client);
                assertThat(denied.statusCode()).isEqualTo(429);
                assertThat(events.denials()).as("one event per 429").hasSize(i + 1);
                RateLimitDenied event = events.denials().get(i);
                assertThat(event.rule()).isEqualTo("search");
                assertThat(event.keyHash()).isEqualTo(sha256(client)).doesNotContain(client);
                assertThat(event.shadow()).isFalse();
                assertThat(event.decision().allowed()).isFalse();
                assertThat(event.decision().retryAfter()).isEqualTo(Duration.ofHours(1));
                assertThat(Long.parseLong(header(denied, "Retry-After"))).isGreaterThanOrEqualTo(event.decision().retryAfterSeconds());
                assertThat(event.time()).isAfter(before);
                RateLimitDenied async = events.asyncDenials().poll(30, TimeUnit.SECONDS);
                assertThat(async).as("the asynchronous observer").isNotNull();
                assertThat(async.keyHash()).isEqualTo(event.keyHash());
                assertThat(async.decision()).isEqualTo(event.decision());
            }
            // the programmatic API's denials too; a long key's hash is the one its bucket is stored under
            String longKey = "k".repeat(100);
            RateLimiter limiter = app.bean(RateLimiter.class);
            limiter.tryAcquire("search", longKey, 2);
            assertThat(events.denials()).hasSize(3);
            Decision denied = limiter.tryAcquire("search", longKey);
            assertThat(denied.allowed()).isFalse();
            assertThat(events.denials()).hasSize(4);
            String hash = events.denials().get(3).keyHash();
            assertThat(hash).isEqualTo(sha256(longKey));
            assertThat(cluster.member(0).getMap(map).containsKey("search:#" + hash)).isTrue();
        }
    }

    @Test
    void aShadowDenialIsAnEventMarkedShadow() throws Exception {
        String client = "shadow-" + UUID.randomUUID();
        try (TestApp app = app(RecordedEvents.class).property("tollgate.rules.search.mode", "shadow").start()) {
            RecordedEvents events = app.bean(RecordedEvents.class);
            for (int i = 0; i < 3; i++) {
                assertThat(app.get("search?q=" + i, "X-Client", client).statusCode()).isEqualTo(200);
            }
            assertThat(events.denials()).hasSize(1);
            RateLimitDenied event = events.denials().get(0);
            assertThat(event.shadow()).isTrue();
            assertThat(event.decision().allowed()).isTrue();
            assertThat(event.decision().retryAfter()).isEqualTo(Duration.ofHours(1));
            assertThat(event.keyHash()).isEqualTo(sha256(client));
            assertThat(events.asyncDenials().poll(30, TimeUnit.SECONDS)).isEqualTo(event);
        }
    }

    @Test
    void anObserverThatThrowsLeavesThe429AsItIs() throws Exception {
        String client = "failing-" + UUID.randomUUID();
        try (TestApp app = app(FailingObserver.class, RecordedEvents.class).start()) {
            app.get("search?q=1", "X-Client", client);
            app.get("search?q=2", "X-Client", client);
            HttpResponse<String> denied = app.get("search?q=3", "X-Client", client);
            assertThat(denied.statusCode()).isEqualTo(429);
            assertThat(Long.parseLong(header(denied, "Retry-After"))).isBetween(3600L, 5400L);
            assertThat(header(denied, "RateLimit-Policy")).isEqualTo("\"search\";q=1;w=3600");
            assertThat(header(denied, "RateLimit")).isEqualTo("\"search\";r=0;t=3600");
            assertThat(header(denied, "Content-Type")).isEqualTo("application/problem+json");
            assertThat(json(denied).getString("rule")).isEqualTo("search");
            // the other observers are still told, the asynchronous ones whatever the synchronous ones did
            assertThat(app.bean(RecordedEvents.class).asyncDenials().poll(30, TimeUnit.SECONDS)).isNotNull();
            assertThat(app.get("search?q=4", "X-Client", client).statusCode()).isEqualTo(429);
        }
    }
}
