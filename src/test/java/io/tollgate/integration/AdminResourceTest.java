package io.tollgate.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.app.SearchResource;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.testing.TestApp;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The admin resource on the in-JVM Jakarta EE stack: off by default, on only for callers in its role. */
class AdminResourceTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final String OPERATOR = "X-Test-User";

    @Test
    void offByDefaultItDoesNotExist() throws Exception {
        try (TestApp app = app().start()) {
            assertThat(app.get("tollgate/admin/rules", OPERATOR, "ops", "X-Test-Roles", "tollgate-admin").statusCode()).isEqualTo(404);
            assertThat(post(app, "tollgate/admin/rules/search/reset", "10.0.0.1", "tollgate-admin").statusCode()).isEqualTo(404);
            for (String path : new String[] {"tollgate/admin", "tollgate/admin/rules", "tollgate/admin/rules/search/reset",
                    "tollgate//admin/rules", "tollgate;v=1/admin/rules/search/bans", "tollgate/%61dmin/rules"}) {
                for (String method : new String[] {"OPTIONS", "PUT", "DELETE", "HEAD", "PATCH", "GET", "POST"}) {
                    HttpResponse<String> answer = app.send(method, path, OPERATOR, "ops", "X-Test-Roles", "tollgate-admin");
                    HttpResponse<String> nothing = app.send(method, path.replace("admin", "nimda"), OPERATOR, "ops");
                    assertThat(nothing.statusCode()).isEqualTo(404);
                    assertThat(answer.statusCode()).as(method + " " + path).isEqualTo(404);
                    assertThat(answer.headers().firstValue("Allow")).as(method + " " + path).isEmpty();
                    assertThat(answer.body()).as(method + " " + path + ": as a path that does not exist")
                            .isEqualTo(nothing.body().replace("nimda", "admin"));
                }
            }
            assertThat(app.send("OPTIONS", "search").statusCode()).as("the application's own paths answer as before").isEqualTo(200);
        }
    }

    @Test
    void anAdminRoleThatLetsEveryUserInOrNobodyFailsTheDeployment() {
        assertThatThrownBy(() -> app().property("tollgate.admin.enabled", "true").property("tollgate.admin.role", "**").start().close())
                .hasMessageContaining("tollgate.admin.role = '**': '**' stands for every authenticated user in Jakarta Security "
                        + "and Servlet, which would let any user reset buckets and lift bans; name the role your operators have");
        assertThatThrownBy(() -> app().property("tollgate.admin.enabled", "true").property("tollgate.admin.role", "*").start().close())
                .hasMessageContaining("tollgate.admin.role = '*': '*' is no role a caller can be in");
    }

    /** A page an operator visits could make their browser POST with their credentials; a custom header it cannot add. */
    @Test
    void aPostWithoutTheRequestedByHeaderChangesNothing() throws Exception {
        try (TestApp app = app().property("tollgate.admin.enabled", "true").property("tollgate.admin.role", "tollgate-admin").start()) {
            String key = "drained";
            assertThat(app.get("search?q=a", "X-Api-Key", key).statusCode()).isEqualTo(200);
            assertThat(app.get("search?q=a", "X-Api-Key", key).statusCode()).isEqualTo(200);
            for (String action : new String[] {"reset", "lift-ban", "inspect"}) {
                HttpRequest forged = HttpRequest.newBuilder(app.base().resolve("tollgate/admin/rules/search/" + action))
                        .timeout(Duration.ofSeconds(30)).header(OPERATOR, "ops").header("X-Test-Roles", "tollgate-admin")
                        .header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString(key)).build();
                HttpResponse<String> refused = HTTP.send(forged, HttpResponse.BodyHandlers.ofString());
                assertThat(refused.statusCode()).as(action).isEqualTo(400);
                assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
                assertThat(refused.body()).isEqualTo("{\"type\":\"about:blank\",\"title\":\"Bad Request\",\"status\":400,"
                        + "\"detail\":\"the Tollgate admin resource takes a POST only with an X-Requested-By header (any value, such as "
                        + "your name), which a browser does not send for another site's page\"}");
            }
            assertThat(app.get("search?q=a", "X-Api-Key", key).statusCode()).as("still drained").isEqualTo(429);
        }
    }

    @Test
    void onWithoutARoleTheDeploymentFailsNamingTheProperty() {
        assertThatThrownBy(() -> app().property("tollgate.admin.enabled", "true").start().close())
                .hasMessageContaining("tollgate.admin.role is not set: the admin resource (tollgate.admin.enabled=true) answers "
                        + "only authenticated callers in this role; name the role your operators have");
        assertThatThrownBy(() -> app().property("tollgate.admin.enabled", "yes").start().close())
                .hasMessageContaining("tollgate.admin.enabled = 'yes'");
    }

    @Test
    void onItAnswersOnlyCallersInTheRole() throws Exception {
        try (TestApp app = app().property("tollgate.admin.enabled", "true").property("tollgate.admin.role", "tollgate-admin").start()) {
            HttpResponse<String> anonymous = app.get("tollgate/admin/rules");
            assertThat(anonymous.statusCode()).isEqualTo(401);
            assertThat(anonymous.headers().firstValue("Content-Type")).hasValue("application/problem+json");
            assertThat(anonymous.body()).isEqualTo("{\"type\":\"about:blank\",\"title\":\"Unauthorized\",\"status\":401,"
                    + "\"detail\":\"the Tollgate admin resource answers authenticated callers only\"}");
            HttpResponse<String> outsider = post(app, "tollgate/admin/rules/search/reset", "10.0.0.1", "users");
            assertThat(outsider.statusCode()).isEqualTo(403);
            assertThat(outsider.body()).contains("\"status\":403", "callers in its role only");

            assertThat(app.get("tollgate/admin/rules", OPERATOR, "ops", "X-Test-Roles", "tollgate-admin").body())
                    .isEqualTo("[{\"name\":\"search\",\"limits\":[{\"tokens\":1,\"period\":\"PT1H\",\"burst\":2}],"
                            + "\"key\":\"header:X-Api-Key\",\"cost\":\"1\",\"match\":\"\",\"exempt\":\"\",\"onMissingKey\":\"shared\","
                            + "\"paths\":[],\"mode\":\"enforce\",\"onStoreFailure\":\"local\",\"overrides\":{},\"ban\":\"\","
                            + "\"limitsFrom\":\"\",\"maxLimit\":\"\"}]");

            String key = "client/with slashes?&=%2F";
            String hash = BucketKeys.hash(key);
            assertThat(app.get("search?q=a", "X-Api-Key", key).statusCode()).isEqualTo(200);
            assertThat(app.get("search?q=a", "X-Api-Key", key).statusCode()).isEqualTo(200);
            assertThat(app.get("search?q=a", "X-Api-Key", key).statusCode()).isEqualTo(429);
            HttpResponse<String> inspected = post(app, "tollgate/admin/rules/search/inspect", key, "tollgate-admin");
            assertThat(inspected.statusCode()).isEqualTo(200);
            assertThat(inspected.body()).startsWith("{\"rule\":\"search\",\"keyHash\":\"" + hash
                    + "\",\"fromStore\":true,\"found\":true,\"full\":false,\"bannedUntil\":null,\"limits\":[{\"remaining\":0,\"burst\":2,\"untilFullSeconds\":").doesNotContain(key);
            HttpResponse<String> reset = post(app, "tollgate/admin/rules/search/reset", key, "tollgate-admin");
            assertThat(reset.statusCode()).isEqualTo(200);
            assertThat(reset.body()).isEqualTo("{\"rule\":\"search\",\"keyHash\":\"" + hash
                    + "\",\"fromStore\":true,\"found\":true,\"full\":true,\"bannedUntil\":null,\"limits\":[{\"remaining\":2,\"burst\":2,\"untilFullSeconds\":0}]}");
            assertThat(app.get("search?q=a", "X-Api-Key", key).statusCode()).isEqualTo(200);

            HttpResponse<String> unknown = post(app, "tollgate/admin/rules/nope/reset", key, "tollgate-admin");
            assertThat(unknown.statusCode()).isEqualTo(404);
            assertThat(unknown.body()).contains("rule = 'nope': no such rule; configured rules are [search]");
        }
    }

    /** A rule's bans listed and a ban lifted over HTTP: the key only by its hash, in the list and the answers. */
    @Test
    void anOperatorListsAndLiftsBans() throws Exception {
        try (TestApp app = app().property("tollgate.admin.enabled", "true").property("tollgate.admin.role", "tollgate-admin")
                .property("tollgate.rules.search.ban-after", "1/1h").property("tollgate.rules.search.ban-for", "1h").start()) {
            String key = "banned client";
            String hash = BucketKeys.hash(key);
            assertThat(app.get("search?q=a", "X-Api-Key", key).statusCode()).isEqualTo(200);
            assertThat(app.get("search?q=a", "X-Api-Key", key).statusCode()).isEqualTo(200);
            assertThat(app.get("search?q=a", "X-Api-Key", key).statusCode()).as("the denial that bans").isEqualTo(429);
            assertThat(app.get("search?q=a", "X-Api-Key", key).headers().firstValue("Content-Type")).hasValue("application/problem+json");

            HttpResponse<String> bans = app.get("tollgate/admin/rules/search/bans", OPERATOR, "ops", "X-Test-Roles", "tollgate-admin");
            assertThat(bans.statusCode()).isEqualTo(200);
            assertThat(bans.body()).startsWith("[{\"keyHash\":\"" + hash + "\",\"until\":\"").endsWith("Z\"}]").doesNotContain(key);
            assertThat(post(app, "tollgate/admin/rules/search/inspect", key, "tollgate-admin").body()).contains("\"bannedUntil\":\"");

            HttpResponse<String> lifted = post(app, "tollgate/admin/rules/search/lift-ban", key, "tollgate-admin");
            assertThat(lifted.statusCode()).isEqualTo(200);
            assertThat(lifted.body()).isEqualTo("{\"rule\":\"search\",\"keyHash\":\"" + hash + "\",\"lifted\":true}");
            assertThat(app.get("tollgate/admin/rules/search/bans", OPERATOR, "ops", "X-Test-Roles", "tollgate-admin").body()).isEqualTo("[]");
            assertThat(post(app, "tollgate/admin/rules/search/lift-ban", key, "tollgate-admin").body()).endsWith("\"lifted\":false}");
            assertThat(post(app, "tollgate/admin/rules/search/lift-ban", key, "users").statusCode()).isEqualTo(403);
            assertThat(app.get("tollgate/admin/rules/search/bans", OPERATOR, "ops", "X-Test-Roles", "users").statusCode()).isEqualTo(403);
        }
    }

    private static TestApp.Builder app() {
        return TestApp.builder().beans(SearchResource.class)
                .property("tollgate.store", "memory")
                .property("tollgate.rules.search.rate", "1/1h")
                .property("tollgate.rules.search.burst", "2")
                .property("tollgate.rules.search.key", "header:X-Api-Key");
    }

    private static HttpResponse<String> post(TestApp app, String path, String key, String roles) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(app.base().resolve(path)).timeout(Duration.ofSeconds(30))
                .header(OPERATOR, "ops").header("X-Test-Roles", roles).header("X-Requested-By", "ops")
                .header("Content-Type", "text/plain; charset=UTF-8")
                .POST(HttpRequest.BodyPublishers.ofString(key)).build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
