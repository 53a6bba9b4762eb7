package io.tollgate.it;

import static io.tollgate.it.Http.contentType;
import static io.tollgate.it.Http.describe;
import static io.tollgate.it.Http.get;
import static io.tollgate.it.Http.header;
import static io.tollgate.it.Http.json;
import static io.tollgate.it.Http.post;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import jakarta.json.JsonObject;
import java.net.URL;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Supplier;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Rules with conditions on a real server, with the contract rules {@code notes} (burst 3, only {@code POST},
 * {@code exempt=ip=10.0.0.0/8}; the suite trusts 127.0.0.1 as a proxy, so {@code X-Forwarded-For} sets the client
 * address) and {@code my-notes} ({@code on-missing-key=reject}).
 */
@ExtendWith(ArquillianExtension.class)
class ConditionsIT {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.contract("conditions");
    }

    @ArquillianResource
    URL base;

    /** @return how many of {@code count} responses had each status */
    private static Map<Integer, Integer> statuses(int count, Supplier<HttpResponse<String>> request) {
        Map<Integer, Integer> statuses = new TreeMap<>();
        for (int i = 0; i < count; i++) {
            statuses.merge(request.get().statusCode(), 1, Integer::sum);
        }
        return statuses;
    }

    @Test
    void anExemptClientIsNeverLimitedWhileAnotherGets429AfterExactlyTheBurst() {
        String key = "key-" + UUID.randomUUID();
        for (int i = 0; i < 20; i++) {
            HttpResponse<String> exempt = post(base, "api/notes", "n", "X-Api-Key", key, "X-Forwarded-For", "10.1.2.3");
            assertEquals(200, exempt.statusCode(), describe(exempt));
            assertNull(header(exempt, "RateLimit"), "an exempt request gets no headers of the rule: " + describe(exempt));
            assertNull(header(exempt, "RateLimit-Policy"), describe(exempt));
        }
        List<Integer> outside = List.of(200, 200, 200, 429, 429);
        for (int i = 0; i < outside.size(); i++) {
            HttpResponse<String> response = post(base, "api/notes", "n", "X-Api-Key", key, "X-Forwarded-For", "198.51.100.20");
            assertEquals(outside.get(i), response.statusCode(), "request " + (i + 1) + ": " + describe(response));
        }
        assertEquals(Map.of(200, 10), statuses(10, () -> post(base, "api/notes", "n", "X-Api-Key", key,
                "X-Forwarded-For", "10.200.0.1")), "the exempt range is still not limited on the emptied key");
    }

    @Test
    void onlyPostsAreLimited() {
        String key = "key-" + UUID.randomUUID();
        for (int i = 0; i < 10; i++) {
            HttpResponse<String> read = get(base, "api/notes", "X-Api-Key", key);
            assertEquals(200, read.statusCode(), describe(read));
            assertNull(header(read, "RateLimit"), "GET is not matched: " + describe(read));
        }
        HttpResponse<String> first = post(base, "api/notes", "n", "X-Api-Key", key);
        assertEquals("\"notes\";q=1;w=3600", header(first, "RateLimit-Policy"), describe(first));
        assertEquals(Map.of(200, 2, 429, 3), statuses(5, () -> post(base, "api/notes", "n", "X-Api-Key", key)));
        assertEquals(Map.of(200, 5), statuses(5, () -> get(base, "api/notes", "X-Api-Key", key)));
    }

    @Test
    void aRequestWithoutTheKeyHeaderIsAnswered400WithTheProblem() {
        for (int i = 0; i < 5; i++) {
            HttpResponse<String> refused = get(base, "api/notes/mine");
            assertEquals(400, refused.statusCode(), describe(refused));
            assertEquals("application/problem+json", contentType(refused).orElse(null), describe(refused));
            JsonObject problem = json(refused);
            assertEquals(List.of("type", "title", "status", "detail", "rule", "source"), List.copyOf(problem.keySet()), problem.toString());
            assertEquals("urn:tollgate:problem:missing-key", problem.getString("type"));
            assertEquals("Bad Request", problem.getString("title"));
            assertEquals(400, problem.getInt("status"));
            assertEquals("Rate limit rule 'my-notes' needs header:x-api-key for its key, and the request has none.",
                    problem.getString("detail"));
            assertEquals("my-notes", problem.getString("rule"));
            assertEquals("header:x-api-key", problem.getString("source"));
        }
        String key = "key-" + UUID.randomUUID(); // with the header, the rule limits as usual
        assertEquals(Map.of(200, 3, 429, 1), statuses(4, () -> get(base, "api/notes/mine", "X-Api-Key", key)));
    }
}
