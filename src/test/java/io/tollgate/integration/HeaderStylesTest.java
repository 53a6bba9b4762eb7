package io.tollgate.integration;

import static io.tollgate.testing.Http.header;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.app.SearchResource;
import io.tollgate.testing.TestApp;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** The older header styles, and none. */
class HeaderStylesTest {

    private static TestApp start(String style) throws Exception {
        return TestApp.builder().beans(SearchResource.class).property("tollgate.store", "memory")
                .property("tollgate.rules.search.rate", "1/1h")
                .property("tollgate.rules.search.burst", "2")
                .property("tollgate.headers", style)
                .start();
    }

    @Test
    void legacyAndXRateLimitStyles() throws Exception {
        for (String prefix : new String[] {"RateLimit-", "X-RateLimit-"}) {
            try (TestApp app = start(prefix.startsWith("X") ? "x-ratelimit" : "legacy")) {
                HttpResponse<String> first = app.get("search?q=1");
                assertThat(header(first, prefix + "Limit")).isEqualTo("2");
                assertThat(header(first, prefix + "Remaining")).isEqualTo("1");
                assertThat(header(first, prefix + "Reset")).isEqualTo("3600");
                assertThat(header(first, "RateLimit-Policy")).isNull();
                app.get("search?q=2");
                HttpResponse<String> denied = app.get("search?q=3");
                assertThat(denied.statusCode()).isEqualTo(429);
                assertThat(header(denied, prefix + "Remaining")).isEqualTo("0");
                assertThat(header(denied, "Retry-After")).isNotNull();
            }
        }
    }

    @Test
    void noHeadersButRetryAfterStays() throws Exception {
        try (TestApp app = start("none")) {
            HttpResponse<String> first = app.get("search?q=1");
            assertThat(first.headers().map().keySet()).noneMatch(name -> name.toLowerCase().contains("ratelimit"));
            app.get("search?q=2");
            HttpResponse<String> denied = app.get("search?q=3");
            assertThat(denied.statusCode()).isEqualTo(429);
            assertThat(denied.headers().map().keySet()).noneMatch(name -> name.toLowerCase().contains("ratelimit"));
            assertThat(header(denied, "Retry-After")).isNotNull();
        }
    }
}
