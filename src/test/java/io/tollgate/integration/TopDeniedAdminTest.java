package io.tollgate.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.DeniedKey;
import io.tollgate.RateLimitAdmin;
import io.tollgate.app.SearchResource;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.testing.TestApp;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** The most denied keys of a rule on the in-JVM Jakarta EE stack: through RateLimitAdmin and the admin resource. */
class TopDeniedAdminTest {

    private static final String[] OPERATOR = {"X-Test-User", "ops", "X-Test-Roles", "tollgate-admin"};

    @Test
    void theClientsDeniedMostAreListedByTheirHashesWithTheirCounts() throws Exception {
        try (TestApp app = app().start()) {
            String flood = "flood/key?with=odd%20chars";
            String other = "198.51.100.1";
            assertThat(statuses(app, flood, 7)).isEqualTo("200 200 429 429 429 429 429");
            assertThat(statuses(app, other, 3)).isEqualTo("200 200 429");
            assertThat(statuses(app, "quiet", 2)).isEqualTo("200 200");

            RateLimitAdmin admin = app.bean(RateLimitAdmin.class);
            assertThat(admin.topDenied("search", 10)).containsExactly(new DeniedKey(BucketKeys.hash(flood), 5, 0),
                    new DeniedKey(BucketKeys.hash(other), 1, 0));
            assertThat(admin.topDenied("search", 1)).containsExactly(new DeniedKey(BucketKeys.hash(flood), 5, 0));
            assertThatThrownBy(() -> admin.topDenied("nope", 10)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("rule = 'nope': no such rule; configured rules are [search]");
            assertThatThrownBy(() -> admin.topDenied("search", 0)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("limit = 0: ask for at least 1 key");

            HttpResponse<String> top = app.get("tollgate/admin/rules/search/top-denied", OPERATOR);
            assertThat(top.statusCode()).isEqualTo(200);
            assertThat(top.headers().firstValue("Content-Type")).hasValue("application/json");
            assertThat(top.body()).isEqualTo("{\"rule\":\"search\",\"keys\":[{\"keyHash\":\"" + BucketKeys.hash(flood)
                    + "\",\"count\":5,\"maxError\":0},{\"keyHash\":\"" + BucketKeys.hash(other) + "\",\"count\":1,\"maxError\":0}]}");
            assertThat(app.get("tollgate/admin/rules/search/top-denied?limit=1", OPERATOR).body())
                    .isEqualTo("{\"rule\":\"search\",\"keys\":[{\"keyHash\":\"" + BucketKeys.hash(flood) + "\",\"count\":5,\"maxError\":0}]}");

            HttpResponse<String> badLimit = app.get("tollgate/admin/rules/search/top-denied?limit=0", OPERATOR);
            assertThat(badLimit.statusCode()).isEqualTo(400);
            assertThat(badLimit.body()).contains("\"detail\":\"limit = '0': a number of keys from 1 to 1000\"");
            assertThat(app.get("tollgate/admin/rules/search/top-denied?limit=ten", OPERATOR).statusCode()).isEqualTo(400);
            assertThat(app.get("tollgate/admin/rules/nope/top-denied", OPERATOR).statusCode()).isEqualTo(404);
            assertThat(app.get("tollgate/admin/rules/search/top-denied").statusCode()).isEqualTo(401);
            assertThat(app.get("tollgate/admin/rules/search/top-denied", "X-Test-User", "ops", "X-Test-Roles", "users").statusCode())
                    .isEqualTo(403);

            admin.reset("search", flood); // a reset gives tokens back, it does not undo the denials counted
            assertThat(admin.topDenied("search", 1)).containsExactly(new DeniedKey(BucketKeys.hash(flood), 5, 0));
        }
    }

    @Test
    void switchedOffNothingIsFollowedAndTheResourceSaysSo() throws Exception {
        try (TestApp app = app().property("tollgate.top-denied", "0").start()) {
            assertThat(statuses(app, "k", 3)).isEqualTo("200 200 429");
            assertThatThrownBy(() -> app.bean(RateLimitAdmin.class).topDenied("search", 10))
                    .isInstanceOf(UnsupportedOperationException.class)
                    .hasMessage("tollgate.top-denied = 0: this application follows no rule's most denied keys");
            HttpResponse<String> off = app.get("tollgate/admin/rules/search/top-denied", OPERATOR);
            assertThat(off.statusCode()).isEqualTo(404);
            assertThat(off.body()).contains("tollgate.top-denied = 0");
        }
    }

    @Test
    void anInvalidSizeFailsTheDeploymentNamingTheProperty() {
        assertThatThrownBy(() -> app().property("tollgate.top-denied", "5000").start().close())
                .hasMessageContaining("tollgate.top-denied = '5000': must be between 0 and 1000");
    }

    private static String statuses(TestApp app, String key, int requests) throws Exception {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < requests; i++) {
            out.append(i > 0 ? " " : "").append(app.get("search?q=a", "X-Api-Key", key).statusCode());
        }
        return out.toString();
    }

    private static TestApp.Builder app() {
        return TestApp.builder().beans(SearchResource.class)
                .property("tollgate.store", "memory")
                .property("tollgate.admin.enabled", "true")
                .property("tollgate.admin.role", "tollgate-admin")
                .property("tollgate.rules.search.rate", "1/1h")
                .property("tollgate.rules.search.burst", "2")
                .property("tollgate.rules.search.key", "header:X-Api-Key");
    }
}
