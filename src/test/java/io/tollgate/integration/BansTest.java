package io.tollgate.integration;

import static io.tollgate.testing.Http.header;
import static io.tollgate.testing.Http.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.tollgate.RateLimitBanned;
import io.tollgate.RateLimitExceededException;
import io.tollgate.app.GreetingService;
import io.tollgate.app.RecordedBans;
import io.tollgate.app.RecordedEvents;
import io.tollgate.app.SearchResource;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.SharedCluster;
import io.tollgate.testing.TestApp;
import jakarta.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Bans over HTTP and through the interceptor on the in-JVM Jakarta EE stack with the Hazelcast store: the n-th 429
 * starts a ban, fired once as a RateLimitBanned; the banned key then gets the configured status, the exact time left
 * as Retry-After and a problem body of the ban's type, and a CDI method throws RateLimitExceededException whose
 * decision is banned.
 */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
class BansTest {

    private HazelcastTestCluster cluster;
    private final String map = "bans-" + UUID.randomUUID();

    @BeforeEach
    void stopTheClock(HazelcastTestCluster shared) {
        cluster = shared;
        cluster.clock().set(2_600_000_000L * 1_000_000);
    }

    private TestApp.Builder app(String status) {
        return TestApp.builder().beans(SearchResource.class, GreetingService.class, RecordedBans.class, RecordedEvents.class)
                .hazelcast(cluster.member(0))
                .property("tollgate.hazelcast.map", map)
                .property("tollgate.denial-cache", "false")
                .property("tollgate.rules.search.rate", "1/1h")
                .property("tollgate.rules.search.burst", "2")
                .property("tollgate.rules.search.key", "header:X-Client")
                .property("tollgate.rules.search.ban-after", "3/1h")
                .property("tollgate.rules.search.ban-for", "15m")
                .property("tollgate.rules.search.ban-status", status)
                .property("tollgate.rules.greet-by-ip.rate", "1/1h")
                .property("tollgate.rules.greet-by-ip.burst", "1")
                .property("tollgate.rules.greet-by-ip.ban-after", "1/1h")
                .property("tollgate.rules.greet-by-ip.ban-for", "1h")
                .property("tollgate.rules.greet-gold.rate", "10")
                .property("tollgate.rules.greet-by-path.rate", "10");
    }

    @Test
    void theThirdDenialBansTheClientWhoThenGets403WithTheTimeLeftAndTheBansProblem() throws Exception {
        String client = "client-" + UUID.randomUUID();
        try (TestApp app = app("403").start()) {
            RecordedBans bans = app.bean(RecordedBans.class);
            assertThat(app.get("search?q=1", "X-Client", client).statusCode()).isEqualTo(200);
            assertThat(app.get("search?q=2", "X-Client", client).statusCode()).isEqualTo(200);
            for (int i = 0; i < 3; i++) {
                assertThat(app.get("search?q=x", "X-Client", client).statusCode()).as("denial " + (i + 1)).isEqualTo(429);
                assertThat(bans.bans()).hasSize(i < 2 ? 0 : 1);
            }
            RateLimitBanned event = bans.bans().get(0);
            assertThat(event.rule()).isEqualTo("search");
            assertThat(event.keyHash()).isEqualTo(BucketKeys.hash(client));
            Instant start = Instant.ofEpochSecond(2_600_000_000L);
            assertThat(event.until()).isEqualTo(start.plus(Duration.ofMinutes(15)));

            cluster.clock().advance(Duration.ofMinutes(5));
            HttpResponse<String> banned = app.get("search?q=y", "X-Client", client);
            assertThat(banned.statusCode()).isEqualTo(403);
            assertThat(header(banned, "Retry-After")).as("the time left, no jitter").isEqualTo("600");
            assertThat(header(banned, "Content-Type")).isEqualTo("application/problem+json");
            assertThat(header(banned, "RateLimit")).as("a ban is no bucket's state").isNull();
            JsonObject body = json(banned);
            assertThat(body.getString("type")).isEqualTo("urn:tollgate:problem:banned");
            assertThat(body.getString("title")).isEqualTo("Temporarily Banned");
            assertThat(body.getInt("status")).isEqualTo(403);
            assertThat(body.getString("rule")).isEqualTo("search");
            assertThat(body.getJsonArray("violated-policies").getString(0)).isEqualTo("search");
            assertThat(body.getInt("retryAfter")).isEqualTo(600);
            assertThat(body.getString("detail")).contains("banned this client after repeated denials");
            assertThat(bans.bans()).as("one event per ban").hasSize(1);
            assertThat(app.bean(RecordedEvents.class).denials().get(3).decision().banned()).isTrue();

            assertThat(app.get("search?q=z", "X-Client", "other-" + client).statusCode()).as("another client").isEqualTo(200);
            cluster.clock().advance(Duration.ofMinutes(10));
            assertThat(app.get("search?q=z", "X-Client", client).statusCode()).as("the ban is over; the bucket denies")
                    .isEqualTo(429);
        }
    }

    /** With tollgate.bans.max-entries=1, a second client that earns a ban gets none: its bucket alone limits it. */
    @Test
    void anInstanceKeepingOneBanLimitsTheSecondBannedClientByItsBucketAlone() throws Exception {
        String first = "client-" + UUID.randomUUID();
        String second = "client-" + UUID.randomUUID();
        try (TestApp app = app("403").property("tollgate.bans.max-entries", "1").start()) {
            for (String client : List.of(first, second)) {
                assertThat(app.get("search?q=1", "X-Client", client).statusCode()).isEqualTo(200);
                assertThat(app.get("search?q=2", "X-Client", client).statusCode()).isEqualTo(200);
                for (int i = 0; i < 3; i++) {
                    assertThat(app.get("search?q=x", "X-Client", client).statusCode()).isEqualTo(429);
                }
            }
            assertThat(app.bean(RecordedBans.class).bans()).singleElement()
                    .satisfies(ban -> assertThat(ban.keyHash()).isEqualTo(BucketKeys.hash(first)));
            assertThat(app.get("search?q=y", "X-Client", first).statusCode()).as("banned").isEqualTo(403);
            HttpResponse<String> limited = app.get("search?q=y", "X-Client", second);
            assertThat(limited.statusCode()).as("denied by its bucket").isEqualTo(429);
            assertThat(json(limited).getString("type")).isNotEqualTo("urn:tollgate:problem:banned");
        }
    }

    @Test
    void aBanAnswers429ByDefaultAndACdiMethodThrowsItsDecision() throws Exception {
        String client = "client-" + UUID.randomUUID();
        try (TestApp app = app("429").property("tollgate.rules.search.ban-status", null).start()) {
            app.get("search?q=1", "X-Client", client);
            app.get("search?q=2", "X-Client", client);
            for (int i = 0; i < 3; i++) {
                app.get("search?q=x", "X-Client", client);
            }
            HttpResponse<String> banned = app.get("search?q=y", "X-Client", client);
            assertThat(banned.statusCode()).isEqualTo(429);
            assertThat(header(banned, "Retry-After")).isEqualTo("900");
            assertThat(json(banned).getString("type")).isEqualTo("urn:tollgate:problem:banned");

            GreetingService service = app.bean(GreetingService.class);
            assertThat(service.greet("a")).isEqualTo("hello a");
            RateLimitExceededException denied = catchThrowableOfType(RateLimitExceededException.class, () -> service.greet("b"));
            assertThat(denied.decision().banned()).as("the denial that starts the ban").isFalse();
            RateLimitExceededException ban = catchThrowableOfType(RateLimitExceededException.class, () -> service.greet("c"));
            assertThat(ban.decision().banned()).isTrue();
            assertThat(ban.retryAfter()).isEqualTo(Duration.ofHours(1));
        }
    }

    @Test
    void aCdiMethodsBanCarriesItsRulesBanStatus() throws Exception {
        try (TestApp app = app("403").property("tollgate.rules.greet-by-ip.ban-status", "403").start()) {
            GreetingService service = app.bean(GreetingService.class);
            assertThat(service.greet("a")).isEqualTo("hello a");
            RateLimitExceededException denied = catchThrowableOfType(RateLimitExceededException.class, () -> service.greet("b"));
            assertThat(denied.status()).as("the denial that starts the ban").isEqualTo(429);
            RateLimitExceededException ban = catchThrowableOfType(RateLimitExceededException.class, () -> service.greet("c"));
            assertThat(ban.decision().banned()).isTrue();
            assertThat(ban.status()).isEqualTo(403);
            assertThat(ban.rule()).isEqualTo("greet-by-ip");
        }
    }
}
