package io.tollgate.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.RateLimitAdmin;
import io.tollgate.RateLimitBanLifted;
import io.tollgate.RateLimitReset;
import io.tollgate.RateLimiter;
import io.tollgate.app.RecordedAdminEvents;
import io.tollgate.app.SearchResource;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.testing.TestApp;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * An operator's reset and lifted ban each reach the application's observers as one event, with the rule, the key's
 * hash and the time, whether the operator used {@link RateLimitAdmin} or the admin resource.
 */
class AdminEventsTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private static TestApp.Builder app() {
        return TestApp.builder().beans(SearchResource.class, RecordedAdminEvents.class)
                .property("tollgate.store", "memory")
                .property("tollgate.rules.search.rate", "1/1h")
                .property("tollgate.rules.search.burst", "1")
                .property("tollgate.rules.search.key", "header:X-Api-Key")
                .property("tollgate.rules.search.ban-after", "2/1h")
                .property("tollgate.rules.search.ban-for", "1h")
                .property("tollgate.admin.enabled", "true")
                .property("tollgate.admin.role", "tollgate-admin");
    }

    @Test
    void eachResetIsOneEventSayingWhetherTheStoreHeldTheBucket() throws Exception {
        try (TestApp app = app().start()) {
            RecordedAdminEvents events = app.bean(RecordedAdminEvents.class);
            RateLimitAdmin admin = app.bean(RateLimitAdmin.class);
            app.bean(RateLimiter.class).tryAcquire("search", "charged");
            Instant before = Instant.now();

            admin.reset("search", "charged");
            assertThat(events.resets()).singleElement().satisfies(event -> {
                assertThat(event.rule()).isEqualTo("search");
                assertThat(event.keyHash()).isEqualTo(BucketKeys.hash("charged"));
                assertThat(event.found()).isTrue();
                assertThat(event.time()).isBetween(before, Instant.now());
            });

            admin.reset("search", "never-charged");
            assertThat(events.resets()).hasSize(2);
            assertThat(events.resets().get(1)).isEqualTo(new RateLimitReset("search", BucketKeys.hash("never-charged"), false,
                    events.resets().get(1).time()));

            assertThatThrownBy(() -> admin.reset("nope", "charged")).isInstanceOf(IllegalArgumentException.class);
            assertThat(events.resets()).as("a refused reset fires nothing").hasSize(2);

            assertThat(post(app, "tollgate/admin/rules/search/reset", "by-http").statusCode()).isEqualTo(200);
            assertThat(events.resets()).hasSize(3);
            assertThat(events.resets().get(2).keyHash()).isEqualTo(BucketKeys.hash("by-http"));
            assertThat(events.lifts()).as("a reset lifts no ban").isEmpty();
        }
    }

    @Test
    void eachLiftedBanIsOneEventAndAKeyWithoutABanFiresNone() throws Exception {
        try (TestApp app = app().start()) {
            RecordedAdminEvents events = app.bean(RecordedAdminEvents.class);
            RateLimitAdmin admin = app.bean(RateLimitAdmin.class);
            for (String key : new String[] {"abuser", "other"}) {
                for (int i = 0; i < 3; i++) { // one allowed, two denials: banned
                    app.get("search?q=" + i, "X-Api-Key", key);
                }
                assertThat(admin.inspect("search", key).banned()).isTrue();
            }
            Instant before = Instant.now();

            assertThat(admin.liftBan("search", "abuser")).isTrue();
            assertThat(events.lifts()).singleElement().satisfies(event -> {
                assertThat(event.rule()).isEqualTo("search");
                assertThat(event.keyHash()).isEqualTo(BucketKeys.hash("abuser"));
                assertThat(event.time()).isBetween(before, Instant.now());
            });
            assertThat(admin.liftBan("search", "abuser")).isFalse();
            assertThat(admin.liftBan("search", "never-banned")).isFalse();
            assertThat(events.lifts()).as("nothing lifted, nothing fired").hasSize(1);

            assertThat(post(app, "tollgate/admin/rules/search/lift-ban", "other").body()).endsWith("\"lifted\":true}");
            assertThat(events.lifts()).extracting(RateLimitBanLifted::keyHash)
                    .containsExactly(BucketKeys.hash("abuser"), BucketKeys.hash("other"));
            assertThat(events.resets()).as("a lifted ban resets no bucket").isEmpty();
        }
    }

    private static HttpResponse<String> post(TestApp app, String path, String key) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(app.base().resolve(path)).timeout(Duration.ofSeconds(30))
                .header("X-Test-User", "ops").header("X-Test-Roles", "tollgate-admin").header("X-Requested-By", "ops")
                .header("Content-Type", "text/plain; charset=UTF-8")
                .POST(HttpRequest.BodyPublishers.ofString(key)).build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
