package io.tollgate.internal.request;

import static io.tollgate.testing.FakeRequest.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.tollgate.InvalidCostException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code cost}: fixed costs, and whole numbers read from a header or query parameter, refused or defaulted when bad. */
class CostSpecTest {

    private static final String WHOLE = "a whole number from 1 to 100";

    private final CostSpec rejecting = CostSpec.fromRequest("header:X-Request-Weight", 1, 1, 100, true);
    private final CostSpec defaulting = CostSpec.fromRequest("header:X-Request-Weight", 7, 1, 100, false);

    private IncomingRequest weight(String... values) {
        return request().header("x-request-weight", values).incoming();
    }

    @Test
    void aFixedCostIsTheSameForEveryRequestAndOutsideOne() {
        CostSpec fixed = CostSpec.fixed(5, 1, 20);
        assertThat(fixed.resolve(null)).isEqualTo(5);
        assertThat(fixed.resolve(weight("99"))).isEqualTo(5);
        assertThat(fixed.readsRequest()).isFalse();
        assertThat(fixed.defaultCost()).isEqualTo(5);
        assertThat(fixed.maxCost()).isEqualTo(20);
        assertThat(fixed).hasToString("5");
    }

    @Test
    void readsAWholeNumberFromAHeader() {
        assertThat(rejecting.readsRequest()).isTrue();
        assertThat(rejecting).hasToString("header:x-request-weight");
        assertThat(rejecting.resolve(weight("7"))).isEqualTo(7);
        assertThat(rejecting.resolve(weight(" 7 "))).isEqualTo(7);
        assertThat(rejecting.resolve(weight("007"))).isEqualTo(7);
        assertThat(rejecting.resolve(weight("1"))).isEqualTo(1);
        assertThat(rejecting.resolve(weight("100"))).isEqualTo(100);
        assertThat(rejecting.resolve(weight("0000000000000000000000000000100"))).isEqualTo(100);
    }

    @Test
    void readsAWholeNumberFromAQueryParameter() {
        CostSpec query = CostSpec.fromRequest("query:weight", 1, 1, 100, true);
        assertThat(query).hasToString("query:weight");
        assertThat(query.resolve(request().query("weight", "42").incoming())).isEqualTo(42);
        assertThat(query.resolve(request().query("Weight", "42").incoming())).isEqualTo(1); // names are exact
    }

    @Test
    void anAbsentValueOrNoRequestCostsTheDefault() {
        assertThat(defaulting.resolve(request().incoming())).isEqualTo(7);
        assertThat(defaulting.resolve(null)).isEqualTo(7);
        assertThat(defaulting.defaultCost()).isEqualTo(7);
        assertThat(rejecting.resolve(request().header("X-Other", "5").incoming())).isEqualTo(1);
    }

    @Test
    void zeroIsAcceptedWhenMinCostIsZero() {
        CostSpec free = CostSpec.fromRequest("header:X-Request-Weight", 1, 0, 100, true);
        assertThat(free.resolve(weight("0"))).isZero();
    }

    @ParameterizedTest(name = "''{0}''")
    @CsvSource(delimiter = '|', value = {
        "-5                      | must not be negative",
        "-1.5                    | must not be negative",
        "0                       | must be at least 1",
        "00                      | must be at least 1",
        "NaN                     | not a number; send " + WHOLE,
        "1.5                     | must be a whole number",
        "1e3                     | must be a whole number",
        "2.0                     | must be a whole number",
        "99999999999999999999    | exceeds max-cost 100",
        "9223372036854775808     | exceeds max-cost 100",
        "101                     | exceeds max-cost 100",
        "''                      | empty; send " + WHOLE,
        "abc                     | not a number; send " + WHOLE,
        "Infinity                | not a number; send " + WHOLE,
        "-Infinity               | not a number; send " + WHOLE,
        "0x10                    | not a number; send " + WHOLE,
        "5d                      | not a number; send " + WHOLE,
        "1 000                   | not a number; send " + WHOLE,
        "１２                    | not a number; send " + WHOLE,
    })
    void refusesEveryBadValueNamingTheSourceAndTheValue(String value, String reason) {
        InvalidCostException e = catchThrowableOfType(InvalidCostException.class, () -> rejecting.resolve(weight(value)));
        assertThat(e).hasMessage("header:x-request-weight = '" + value + "': " + reason);
        assertThat(e.source()).isEqualTo("header:x-request-weight");
        assertThat(e.value()).isEqualTo(value);
        assertThat(e.rule()).isNull();
    }

    @Test
    void aBlankValueIsEmptyAndShownAsSent() {
        assertThatThrownBy(() -> rejecting.resolve(weight("   ")))
                .isInstanceOf(InvalidCostException.class)
                .hasMessage("header:x-request-weight = '   ': empty; send " + WHOLE);
    }

    @Test
    void aValueSentTwiceIsRefusedEvenIfBothAreGood() {
        assertThatThrownBy(() -> rejecting.resolve(weight("5", "6")))
                .isInstanceOf(InvalidCostException.class)
                .hasMessage("header:x-request-weight = '5': sent 2 times; send it once");
        CostSpec query = CostSpec.fromRequest("query:weight", 1, 1, 100, true);
        assertThatThrownBy(() -> query.resolve(request().query("weight", "5", "5", "5").incoming()))
                .isInstanceOf(InvalidCostException.class)
                .hasMessage("query:weight = '5': sent 3 times; send it once");
    }

    @Test
    void aValueAboveMaxCostIsRefusedAtTheConfiguredMax() {
        CostSpec small = CostSpec.fromRequest("query:w", 1, 1, 3, true);
        assertThat(small.maxCost()).isEqualTo(3);
        assertThat(small.resolve(request().query("w", "3").incoming())).isEqualTo(3);
        assertThatThrownBy(() -> small.resolve(request().query("w", "4").incoming()))
                .hasMessage("query:w = '4': exceeds max-cost 3");
        CostSpec atLeastTwo = CostSpec.fromRequest("query:w", 2, 2, 3, true);
        assertThatThrownBy(() -> atLeastTwo.resolve(request().query("w", "1").incoming()))
                .hasMessage("query:w = '1': must be at least 2");
    }

    @Test
    void controlCharactersAreNotEchoed() {
        InvalidCostException e = catchThrowableOfType(InvalidCostException.class,
                () -> rejecting.resolve(weight("1\u0007\r\n2\u007f3\u001b[31m")));
        assertThat(e).hasMessage("header:x-request-weight = '1???2?3?[31m': not a number; send " + WHOLE);
        assertThat(e.value()).isEqualTo("1???2?3?[31m");
    }

    @Test
    void aLongValueIsShortenedInTheMessage() {
        String value = "x".repeat(50);
        assertThatThrownBy(() -> rejecting.resolve(weight(value)))
                .isInstanceOf(InvalidCostException.class)
                .hasMessage("header:x-request-weight = '" + "x".repeat(40) + "...': not a number; send " + WHOLE);
        String forty = "y".repeat(40);
        assertThatThrownBy(() -> rejecting.resolve(weight(forty)))
                .hasMessage("header:x-request-weight = '" + forty + "': not a number; send " + WHOLE);
    }

    @ParameterizedTest(name = "''{0}''")
    @ValueSource(strings = {"-5", "0", "NaN", "1.5", "1e3", "99999999999999999999", "101", "", "abc", "\u0007"})
    void chargesTheDefaultCostForEveryBadValueWhenSoConfigured(String value) {
        assertThat(defaulting.resolve(weight(value))).isEqualTo(7);
    }

    @Test
    void chargesTheDefaultCostForAValueSentTwiceWhenSoConfigured() {
        assertThat(defaulting.resolve(weight("5", "6"))).isEqualTo(7);
    }

    @Test
    void theExceptionCanNameItsRule() {
        InvalidCostException e = catchThrowableOfType(InvalidCostException.class, () -> rejecting.resolve(weight("-1")));
        InvalidCostException named = e.forRule("search");
        assertThat(named.rule()).isEqualTo("search");
        assertThat(named).hasMessage(e.getMessage()).hasMessage("header:x-request-weight = '-1': must not be negative");
        assertThat(named.source()).isEqualTo("header:x-request-weight");
        assertThat(named.value()).isEqualTo("-1");
        assertThat(named.getStackTrace()).isEmpty(); // cheap to throw per request
    }

    @ParameterizedTest(name = "cost {0}")
    @ValueSource(strings = {"cookie:x", "jwt:weight", "principal", "header:", "query:", "1.5", "weight", "header:a b"})
    void refusesASourceThatIsNotAHeaderOrQueryParameter(String source) {
        assertThatThrownBy(() -> CostSpec.fromRequest(source, 1, 1, 10, true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("'" + source + "' is not a cost; use a whole number, header:<name> or query:<name>");
    }
}
