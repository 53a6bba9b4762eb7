package io.tollgate.integration;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.BucketStatus;
import io.tollgate.RateLimitAdmin;
import io.tollgate.RateLimitDenied;
import io.tollgate.app.ItemsResource;
import io.tollgate.app.RecordedEvents;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.testing.TestApp;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/**
 * A composite key named as the README writes it ({@code key=header:X-Api-Key, path} gives {@code <api key>,<path>}):
 * an override written so matches the requests with that key and path, the admin inspects, resets and lifts the ban
 * of the bucket those requests charge (in Java and over HTTP), and denial events carry the hash of that text.
 */
class CompositeKeysTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final String OPERATOR = "X-Test-User";
    /** The canonical form of the key {@code k3y} on {@code /items/42}. */
    private static final String KEY = "k3y,/items/42";

    private static TestApp.Builder app() {
        return TestApp.builder().beans(ItemsResource.class, RecordedEvents.class)
                .property("tollgate.store", "memory")
                .property("tollgate.admin.enabled", "true")
                .property("tollgate.admin.role", "tollgate-admin")
                .property("tollgate.rules.upload.rate", "1/1s") // ItemsResource's other method
                .property("tollgate.rules.api.rate", "1/1h")
                .property("tollgate.rules.api.burst", "1")
                .property("tollgate.rules.api.key", "header:X-Api-Key, path")
                .property("tollgate.rules.api.paths", "/items/*")
                // 50%off on /items/a,b is the key 50%25off,/items/a%2Cb, whose '%' the overrides syntax writes %25
                .property("tollgate.rules.api.overrides", "k3y,/items/42=1/1h burst 3; 50%2525off,/items/a%252Cb=1/1h burst 2");
    }

    private static int get(TestApp app, String path, String apiKey) throws Exception {
        return app.get(path, "X-Api-Key", apiKey).statusCode();
    }

    @Test
    void anOverrideWrittenAsTheReadmeWritesTheKeyMatchesItsRequests() throws Exception {
        try (TestApp app = app().start()) {
            for (int i = 0; i < 3; i++) {
                assertThat(get(app, "items/42", "k3y")).as("request %d of the override's burst 3", i + 1).isEqualTo(200);
            }
            assertThat(get(app, "items/42", "k3y")).isEqualTo(429);

            assertThat(get(app, "items/43", "k3y")).as("another path: the rule's burst 1").isEqualTo(200);
            assertThat(get(app, "items/43", "k3y")).isEqualTo(429);

            assertThat(get(app, "items/a,b", "50%off")).isEqualTo(200);
            assertThat(get(app, "items/a,b", "50%off")).isEqualTo(200);
            assertThat(get(app, "items/a,b", "50%off")).as("the second override's burst 2").isEqualTo(429);
        }
    }

    @Test
    void theAdminActsOnTheBucketTheRequestsCharge() throws Exception {
        try (TestApp app = app().property("tollgate.rules.api.ban-after", "3/1h").property("tollgate.rules.api.ban-for", "1h").start()) {
            RateLimitAdmin admin = app.bean(RateLimitAdmin.class);
            for (int i = 0; i < 3; i++) {
                assertThat(get(app, "items/42", "k3y")).isEqualTo(200);
            }
            assertThat(get(app, "items/42", "k3y")).isEqualTo(429);

            BucketStatus emptied = admin.inspect("api", KEY);
            assertThat(emptied.found()).isTrue();
            assertThat(emptied.full()).isFalse();
            assertThat(emptied.limits()).singleElement().satisfies(limit -> {
                assertThat(limit.remaining()).isZero();
                assertThat(limit.burst()).isEqualTo(3);
            });
            HttpResponse<String> inspected = post(app, "inspect", KEY);
            assertThat(inspected.statusCode()).isEqualTo(200);
            assertThat(inspected.body()).contains("\"keyHash\":\"" + BucketKeys.hash(KEY) + "\"", "\"found\":true,\"full\":false",
                    "\"remaining\":0,\"burst\":3");

            BucketStatus reset = admin.reset("api", KEY);
            assertThat(reset.found()).isTrue();
            assertThat(reset.full()).isTrue();
            for (int i = 0; i < 3; i++) {
                assertThat(get(app, "items/42", "k3y")).as("request %d after the reset", i + 1).isEqualTo(200);
            }
            assertThat(get(app, "items/42", "k3y")).isEqualTo(429);
            assertThat(post(app, "reset", KEY).body()).contains("\"found\":true,\"full\":true");
            for (int i = 0; i < 3; i++) {
                assertThat(get(app, "items/42", "k3y")).as("request %d after the reset over HTTP", i + 1).isEqualTo(200);
            }

            assertThat(admin.inspect("api", KEY).banned()).isFalse();
            assertThat(get(app, "items/42", "k3y")).as("the third denial bans").isEqualTo(429);
            assertThat(admin.inspect("api", KEY).banned()).isTrue();
            assertThat(admin.liftBan("api", KEY)).isTrue();
            assertThat(admin.inspect("api", KEY).banned()).isFalse();
            for (int i = 0; i < 3; i++) {
                assertThat(get(app, "items/42", "k3y")).isEqualTo(429);
            }
            assertThat(admin.inspect("api", KEY).banned()).as("banned again").isTrue();
            assertThat(post(app, "lift-ban", KEY).body()).endsWith("\"lifted\":true}");
            assertThat(admin.inspect("api", KEY).banned()).isFalse();
        }
    }

    /** A key named otherwise than the rule builds it names no bucket, and the answers say so rather than "full". */
    @Test
    void aKeyWithNoBucketAndNoBanIsAnsweredSo() throws Exception {
        try (TestApp app = app().property("tollgate.rules.api.ban-after", "2/1h").property("tollgate.rules.api.ban-for", "1h").start()) {
            RateLimitAdmin admin = app.bean(RateLimitAdmin.class);
            assertThat(get(app, "items/42", "k3y")).isEqualTo(200);
            String lengthPrefixed = "3:k3y9:/items/42";
            for (String other : new String[] {"k3y/items/42", lengthPrefixed, "k3y, /items/42"}) {
                BucketStatus inspected = admin.inspect("api", other);
                assertThat(inspected.found()).as(other).isFalse();
                assertThat(inspected.full()).as(other).isTrue();
                assertThat(inspected.banned()).as(other).isFalse();
                BucketStatus reset = admin.reset("api", other);
                assertThat(reset.found()).as(other).isFalse();
                assertThat(reset.banned()).as(other).isFalse();
                assertThat(admin.liftBan("api", other)).as(other).isFalse();
            }
            assertThat(post(app, "inspect", "k3y/items/42").body()).contains("\"fromStore\":true,\"found\":false,\"full\":true");
            assertThat(post(app, "reset", "k3y/items/42").body()).contains("\"fromStore\":true,\"found\":false,\"full\":true",
                    "\"bannedUntil\":null");
            assertThat(post(app, "lift-ban", "k3y/items/42").body()).endsWith("\"lifted\":false}");
            assertThat(admin.inspect("api", KEY).limits().get(0).remaining()).as("the real bucket kept its charge").isEqualTo(2);
        }
    }

    @Test
    void aDenialEventNamesTheKeyByTheHashOfItsCanonicalForm() throws Exception {
        try (TestApp app = app().start()) {
            RecordedEvents events = app.bean(RecordedEvents.class);
            assertThat(get(app, "items/7", "k3y")).isEqualTo(200);
            assertThat(get(app, "items/7", "k3y")).isEqualTo(429);
            assertThat(events.denials()).singleElement().extracting(RateLimitDenied::keyHash).isEqualTo(sha256("k3y,/items/7"));
        }
    }

    /** The README's oracle: SHA-256 of the key's UTF-8, base64url without padding. */
    private static String sha256(String key) throws Exception {
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
    }

    private static HttpResponse<String> post(TestApp app, String action, String key) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(app.base().resolve("tollgate/admin/rules/api/" + action))
                .timeout(Duration.ofSeconds(30)).header(OPERATOR, "ops").header("X-Test-Roles", "tollgate-admin").header("X-Requested-By", "ops")
                .header("Content-Type", "text/plain; charset=UTF-8").POST(HttpRequest.BodyPublishers.ofString(key)).build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
