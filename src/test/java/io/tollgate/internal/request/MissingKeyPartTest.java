package io.tollgate.internal.request;

import static io.tollgate.testing.FakeRequest.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.MissingKeyException;
import io.tollgate.internal.http.ProblemBodies;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.StringReader;
import org.junit.jupiter.api.Test;

/** Which part of a key a request lacks ({@code on-missing-key}), and how its refusal reads. */
class MissingKeyPartTest {

    @Test
    void namesTheFirstSourcePartTheRequestLacks() {
        KeySpec key = KeySpec.parse("header:X-Api-Key, query:tenant, jwt:sub, principal");
        IncomingRequest complete = request().header("X-Api-Key", "k").query("tenant", "t").claim("sub", "s").principal("p").incoming();
        assertThat(key.missingPart(complete)).isNull();
        assertThat(key.missingPart(request().query("tenant", "t").incoming())).isEqualTo("header:x-api-key");
        assertThat(key.missingPart(request().header("X-Api-Key", "k").incoming())).isEqualTo("query:tenant");
        assertThat(key.missingPart(request().header("X-Api-Key", "k").query("tenant", "t").incoming())).isEqualTo("jwt:sub");
        assertThat(key.missingPart(request().header("X-Api-Key", "k").query("tenant", "t").claim("sub", "s").incoming()))
                .isEqualTo("principal");
        assertThat(key.missingPart(null)).as("outside an HTTP request").isEqualTo("header:x-api-key");
    }

    @Test
    void anEmptyValueIsPresent() {
        assertThat(KeySpec.parse("header:X-Api-Key").missingPart(request().header("X-Api-Key", "").incoming())).isNull();
    }

    @Test
    void theClientAddressThePathGlobalAndResolversAreNeverMissing() {
        assertThat(KeySpec.parse("ip, path, global, resolver:com.example.Keys").missingPart(request().incoming())).isNull();
        assertThat(KeySpec.parse("ip").missingPart(null)).isNull();
        assertThat(KeySpec.parse("ip, header:X-Api-Key").missingPart(request().incoming())).isEqualTo("header:x-api-key");
    }

    @Test
    void theRefusalNamesTheRuleAndThePartInABadRequestProblem() {
        MissingKeyException refused = Refusals.missingKey("api", "header:x-api-key", true);
        assertThat(refused).hasMessage("Rate limit rule 'api' needs header:x-api-key for its key, and the request has none.");
        JsonObject problem;
        try (JsonReader reader = Json.createReader(new StringReader(ProblemBodies.missingKey(refused)))) {
            problem = reader.readObject();
        }
        assertThat(problem.keySet()).containsExactly("type", "title", "status", "detail", "rule", "source");
        assertThat(problem.getString("type")).isEqualTo("urn:tollgate:problem:missing-key");
        assertThat(problem.getString("title")).isEqualTo("Bad Request");
        assertThat(problem.getInt("status")).isEqualTo(400);
        assertThat(problem.getString("detail")).isEqualTo(refused.getMessage());
        assertThat(problem.getString("rule")).isEqualTo("api");
        assertThat(problem.getString("source")).isEqualTo("header:x-api-key");
    }

    @Test
    void outsideAnHttpRequestTheRefusalSaysHowToGiveTheKey() {
        assertThat(Refusals.missingKey("reports", "jwt:tenant", false)).hasMessage("Rate limit rule 'reports' needs jwt:tenant "
                + "for its key, and a call outside an HTTP request has none (on-missing-key=reject); give such calls their key "
                + "with @RateLimitKey or RateLimiter.");
    }
}
