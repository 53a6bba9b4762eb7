package io.tollgate.internal.http;

import static io.tollgate.testing.FakeRequest.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.tollgate.Decision;
import io.tollgate.InvalidCostException;
import io.tollgate.internal.limiter.Decisions;
import io.tollgate.internal.request.CostSpec;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.StringReader;
import org.junit.jupiter.api.Test;

/** RFC 9457 {@code application/problem+json} bodies of 429 and 400 answers, valid JSON whatever they echo. */
class ProblemBodiesTest {

    private static final long SECOND = 1_000_000L;

    private static JsonObject json(String body) {
        try (JsonReader reader = Json.createReader(new StringReader(body))) {
            return reader.readObject();
        }
    }

    @Test
    void aDenialIsAProblemNamingTheRuleAndTheWait() {
        String body = ProblemBodies.tooManyRequests(new Decision("search", false, 3, 1, 20, 0, 1_900_000, 200_000, false, false), 1);
        JsonObject problem = json(body);
        assertThat(problem.keySet()).containsExactly("type", "title", "status", "detail", "violated-policies", "rule", "burst",
                "remaining", "retryAfter");
        assertThat(problem.getString("type")).isEqualTo("https://iana.org/assignments/http-problem-types#quota-exceeded")
                .isEqualTo(ProblemBodies.QUOTA_EXCEEDED);
        assertThat(problem.getString("title")).isEqualTo("Quota Exceeded");
        assertThat(problem.getJsonArray("violated-policies").getValuesAs(jakarta.json.JsonString::getString))
                .containsExactly("search");
        assertThat(problem.getInt("status")).isEqualTo(429);
        assertThat(problem.getString("detail"))
                .isEqualTo("Rate limit rule 'search' allows 20 at once; 1 left, 3 asked for. Retry after 1 s.");
        assertThat(problem.getString("rule")).isEqualTo("search");
        assertThat(problem.getJsonNumber("burst").longValueExact()).isEqualTo(20);
        assertThat(problem.getJsonNumber("remaining").longValueExact()).isEqualTo(1);
        assertThat(problem.getJsonNumber("retryAfter").longValueExact()).isEqualTo(1);
    }

    @Test
    void aDenialWithoutTheStoreSaysSo() {
        JsonObject problem = json(ProblemBodies.tooManyRequests(Decisions.storeUnavailable("search", false, 1, 20, SECOND), 2));
        assertThat(problem.getString("type")).isEqualTo("https://iana.org/assignments/http-problem-types#temporary-reduced-capacity");
        assertThat(problem.getString("title")).isEqualTo("Temporary Reduced Capacity");
        assertThat(problem.getJsonArray("violated-policies").getValuesAs(jakarta.json.JsonString::getString))
                .containsExactly("search");
        assertThat(problem.getInt("status")).isEqualTo(429);
        assertThat(problem.getString("detail"))
                .isEqualTo("Rate limit rule 'search' could not be checked and denies requests until it can.");
        assertThat(problem.getString("rule")).isEqualTo("search");
        assertThat(problem.getJsonNumber("burst").longValueExact()).isEqualTo(20);
        assertThat(problem.getJsonNumber("remaining").longValueExact()).isZero();
        assertThat(problem.getJsonNumber("retryAfter").longValueExact()).isEqualTo(2);
    }

    @Test
    void aBadCostIsAProblemNamingTheRuleAndTheSource() {
        InvalidCostException e = badCost("-3").forRule("search");
        JsonObject problem = json(ProblemBodies.invalidCost(e));
        assertThat(problem.keySet()).containsExactly("type", "title", "status", "detail", "rule", "source");
        assertThat(problem.getString("type")).isEqualTo("urn:tollgate:problem:invalid-cost").isEqualTo(ProblemBodies.INVALID_COST);
        assertThat(problem.getString("title")).isEqualTo("Bad Request");
        assertThat(problem.getInt("status")).isEqualTo(400);
        assertThat(problem.getString("detail")).isEqualTo("header:x-request-weight = '-3': must not be negative");
        assertThat(problem.getString("rule")).isEqualTo("search");
        assertThat(problem.getString("source")).isEqualTo("header:x-request-weight");
        assertThat(ProblemBodies.MEDIA_TYPE).isEqualTo("application/problem+json");
    }

    @Test
    void aBadCostEchoedInTheBodyStaysValidJson() {
        String sent = "\"}, \"status\": 200, \"x\": \"\\";
        InvalidCostException e = badCost(sent).forRule("search");
        JsonObject problem = json(ProblemBodies.invalidCost(e));
        assertThat(problem.getInt("status")).isEqualTo(400);
        assertThat(problem.getString("detail")).isEqualTo("header:x-request-weight = '" + sent
                + "': not a number; send a whole number from 1 to 100");
    }

    @Test
    void quotesBackslashesAndControlCharactersAreEscaped() {
        assertThat(ProblemBodies.quote("plain")).isEqualTo("\"plain\"");
        assertThat(ProblemBodies.quote("a\"b\\c")).isEqualTo("\"a\\\"b\\\\c\"");
        assertThat(ProblemBodies.quote("\n\r\t\u0000\u001f\u007f")).isEqualTo("\"\\u000a\\u000d\\u0009\\u0000\\u001f\\u007f\"");
        assertThat(ProblemBodies.quote("é €")).isEqualTo("\"é €\"");
        assertThat(ProblemBodies.quote("\uD83D\uDE00")).isEqualTo("\"\uD83D\uDE00\"");
        assertThat(ProblemBodies.quote("\uD83Dx\uDE00")).isEqualTo("\"\\ud83dx\\ude00\"");
        assertThat(ProblemBodies.quote("\uD83D")).isEqualTo("\"\\ud83d\"");
    }

    @Test
    void theViolatedPolicyIsTheLimitThatDenied() {
        JsonObject problem = json(ProblemBodies.tooManyRequests(new Decision("multi", false, 1, 0, 1000, 1, 3_600 * SECOND,
                3_600_000, false, false), 4));
        assertThat(problem.getJsonArray("violated-policies").getValuesAs(jakarta.json.JsonString::getString))
                .containsExactly("multi.1");
        assertThat(problem.getJsonNumber("burst").longValueExact()).isEqualTo(1000);
    }

    @Test
    void everyStringSurvivesTheRoundTripThroughJson() {
        String rule = "r\"u\\l/e\n\t\u0001\u007f\u2028 \uD83D\uDE00 end";
        Decision decision = new Decision(rule, false, 1, 0, 5, 0, SECOND, SECOND, false, false);
        JsonObject problem = json(ProblemBodies.tooManyRequests(decision, 1));
        assertThat(problem.getString("rule")).isEqualTo(rule);
        assertThat(problem.getString("detail")).isEqualTo("Rate limit rule '" + rule
                + "' allows 5 at once; 0 left, 1 asked for. Retry after 1 s.");
        assertThat(problem.getJsonNumber("retryAfter").longValueExact()).isEqualTo(1);
    }

    private static InvalidCostException badCost(String value) {
        CostSpec cost = CostSpec.fromRequest("header:X-Request-Weight", 1, 1, 100, true);
        InvalidCostException e = catchThrowableOfType(InvalidCostException.class,
                () -> cost.resolve(request().header("X-Request-Weight", value).incoming()));
        assertThat(e).isNotNull();
        return e;
    }
}
