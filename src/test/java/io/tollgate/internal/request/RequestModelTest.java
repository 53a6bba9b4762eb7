package io.tollgate.internal.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.tollgate.RateLimitKeyResolver;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** What rules read from a request: keys, costs, match conditions, paths and the client address. */
class RequestModelTest {

    /** A request with just the parts a test gives it; header names are case-insensitive, as in HTTP. */
    static final class FakeRequest implements RequestView {
        private final Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        private final Map<String, List<String>> query = new LinkedHashMap<>();
        private final Map<String, String> claims = new LinkedHashMap<>();
        private String principal;
        private String path = "/";
        private String remoteAddress = "198.51.100.7";
        int remoteAddressReads;

        FakeRequest header(String name, String... values) {
            headers.computeIfAbsent(name, n -> new ArrayList<>()).addAll(List.of(values));
            return this;
        }

        FakeRequest query(String name, String... values) {
            query.computeIfAbsent(name, n -> new ArrayList<>()).addAll(List.of(values));
            return this;
        }

        FakeRequest claim(String name, String value) {
            claims.put(name, value);
            return this;
        }

        FakeRequest principal(String name) {
            principal = name;
            return this;
        }

        FakeRequest path(String path) {
            this.path = path;
            return this;
        }

        FakeRequest from(String remoteAddress) {
            this.remoteAddress = remoteAddress;
            return this;
        }

        IncomingRequest incoming() {
            return new IncomingRequest(this, TrustedProxies.NONE);
        }

        @Override
        public List<String> headers(String name) {
            return headers.getOrDefault(name, List.of());
        }

        @Override
        public List<String> queryParameters(String name) {
            return query.getOrDefault(name, List.of());
        }

        @Override
        public String principal() {
            return principal;
        }

        @Override
        public String claim(String name) {
            return claims.get(name);
        }

        @Override
        public String path() {
            return path;
        }

        @Override
        public String remoteAddress() {
            remoteAddressReads++;
            return remoteAddress;
        }
    }

    static FakeRequest request() {
        return new FakeRequest();
    }

    // ====================================================================== keys

    @Nested
    class Keys {

        private final Function<String, RateLimitKeyResolver> noResolvers = name -> {
            throw new AssertionError("no resolver expected, asked for " + name);
        };

        private String key(String spec, IncomingRequest request) {
            return KeySpec.parse(spec).resolve("search", request, null, new Object[0], noResolvers);
        }

        @Test
        void eachPartReadsItsOwnSourceAndASinglePartIsUsedAsIs() {
            IncomingRequest r = request().from("203.0.113.9").principal("alice").header("X-Api-Key", "key-1")
                    .query("apiKey", "q-1").claim("tenant", "acme").path("/api/search/books").incoming();
            assertThat(key("ip", r)).isEqualTo("203.0.113.9");
            assertThat(key("principal", r)).isEqualTo("alice");
            assertThat(key("header:X-Api-Key", r)).isEqualTo("key-1");
            assertThat(key("header:x-api-key", r)).isEqualTo("key-1");
            assertThat(key("query:apiKey", r)).isEqualTo("q-1");
            assertThat(key("jwt:tenant", r)).isEqualTo("acme");
            assertThat(key("path", r)).isEqualTo("/api/search/books");
            assertThat(key("global", r)).isEmpty();
        }

        @Test
        void partNamesAreCaseInsensitiveAndSurroundingSpacesDoNotMatter() {
            IncomingRequest r = request().from("203.0.113.9").header("X-Api-Key", "key-1").incoming();
            assertThat(key(" IP ", r)).isEqualTo("203.0.113.9");
            assertThat(key("Header: X-Api-Key", r)).isEqualTo("key-1");
            assertThat(KeySpec.parse("  header:X-Api-Key , path ")).hasToString("header:X-Api-Key , path");
        }

        @Test
        void aQueryParameterNameIsCaseSensitive() {
            IncomingRequest r = request().query("apiKey", "q-1").incoming();
            assertThat(key("query:apikey", r)).isEmpty();
        }

        @Test
        void aPartSentTwiceUsesTheFirstValue() {
            assertThat(key("header:X-Api-Key", request().header("X-Api-Key", "first", "second").incoming()))
                    .isEqualTo("first");
        }

        @Test
        void aCompositeKeyPrefixesEachPartWithItsLength() {
            IncomingRequest r = request().header("X-Api-Key", "k1").path("/p").from("203.0.113.9").incoming();
            assertThat(key("header:X-Api-Key, path", r)).isEqualTo("2:k12:/p");
            assertThat(key("ip,path,global", r)).isEqualTo("11:203.0.113.92:/p0:");
        }

        @Test
        void compositeKeysCannotCollideWhateverTheValuesContain() {
            String spec = "header:A, header:B";
            String first = key(spec, request().header("A", "a|b").header("B", "c").incoming());
            String second = key(spec, request().header("A", "a").header("B", "b|c").incoming());
            String third = key(spec, request().header("A", "1:a").header("B", "").incoming());
            String fourth = key(spec, request().header("A", "").header("B", "1:a").incoming());
            assertThat(first).isEqualTo("3:a|b1:c");
            assertThat(second).isEqualTo("1:a3:b|c");
            assertThat(third).isEqualTo("3:1:a0:");
            assertThat(fourth).isEqualTo("0:3:1:a");
            assertThat(List.of(first, second, third, fourth)).doesNotHaveDuplicates();
        }

        @Test
        void aMissingPartIsTheEmptyString() {
            IncomingRequest r = request().path("/p").incoming();
            assertThat(key("header:X-Api-Key", r)).isEmpty();
            assertThat(key("query:apiKey", r)).isEmpty();
            assertThat(key("jwt:tenant", r)).isEmpty();
            assertThat(key("principal", r)).isEmpty();
            assertThat(key("header:X-Api-Key, path", r)).isEqualTo("0:2:/p");
        }

        @Test
        void withoutARequestEveryRequestPartIsTheEmptyString() {
            for (String spec : List.of("ip", "path", "principal", "header:X", "query:x", "jwt:sub", "global")) {
                assertThat(key(spec, null)).as(spec).isEmpty();
            }
            assertThat(key("ip, path, header:X", null)).isEqualTo("0:0:0:");
        }

        @Test
        void aResolverPartCallsTheResolverOfItsClassWithTheCall() throws Exception {
            Method method = Object.class.getMethod("toString");
            Object[] arguments = {"tenant-7", 3};
            List<String> asked = new ArrayList<>();
            List<Object[]> calls = new ArrayList<>();
            Function<String, RateLimitKeyResolver> resolvers = name -> {
                asked.add(name);
                return (rule, m, args) -> {
                    calls.add(new Object[] {rule, m, args});
                    return rule + "/" + args[0];
                };
            };
            KeySpec spec = KeySpec.parse("resolver:com.example.TenantKeys");
            assertThat(spec.resolve("reports", null, method, arguments, resolvers)).isEqualTo("reports/tenant-7");
            assertThat(asked).containsExactly("com.example.TenantKeys");
            assertThat(calls).singleElement().satisfies(call -> {
                assertThat(call[0]).isEqualTo("reports");
                assertThat(call[1]).isSameAs(method);
                assertThat(call[2]).isSameAs(arguments);
            });
            assertThat(spec.resolverClasses()).containsExactly("com.example.TenantKeys");
        }

        @Test
        void aResolverThatAnswersNullGivesTheEmptyKey() {
            KeySpec spec = KeySpec.parse("resolver:com.example.Nothing, ip");
            assertThat(spec.resolve("r", request().from("203.0.113.9").incoming(), null, new Object[0],
                    name -> (rule, m, args) -> null)).isEqualTo("0:11:203.0.113.9");
        }

        @Test
        void knowsWhetherItReadsTheRequest() {
            assertThat(KeySpec.parse("global").readsRequest()).isFalse();
            assertThat(KeySpec.parse("resolver:a.B").readsRequest()).isFalse();
            assertThat(KeySpec.parse("global, resolver:a.B").readsRequest()).isFalse();
            assertThat(KeySpec.parse("ip").readsRequest()).isTrue();
            assertThat(KeySpec.parse("path").readsRequest()).isTrue();
            assertThat(KeySpec.parse("resolver:a.B, jwt:sub").readsRequest()).isTrue();
            assertThat(KeySpec.parse("ip, resolver:a.B, resolver:c.d.E").resolverClasses()).containsExactly("a.B", "c.d.E");
            assertThat(KeySpec.parse("ip").resolverClasses()).isEmpty();
        }

        @ParameterizedTest(name = "key {0}")
        @CsvSource(delimiter = '|', value = {
            "cookie:session         | cookie:session",
            "ip, cookie:session     | cookie:session",
            "header:                | header:",
            "header:X Y             | header:X Y",
            "query:a=b              | query:a=b",
            "principal:alice        | principal:alice",
            "jwt:                   | jwt:",
            "resolver:              | resolver:",
            "resolver:1com.Keys     | resolver:1com.Keys",
            "resolver:com..Keys     | resolver:com..Keys",
            "ip,                    | ''",
            "''                     | ''",
            "address                | address",
        })
        void refusesAnUnknownPart(String spec, String part) {
            assertThatThrownBy(() -> KeySpec.parse(spec))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("'" + part + "' is not a key; use ip, principal, header:<name>, query:<name>, jwt:<claim>, "
                            + "path, global or resolver:<class>, comma-separated for a composite key");
        }
    }

    // ====================================================================== costs

    @Nested
    class Costs {

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

    // ====================================================================== match

    @Nested
    class Matches {

        @Test
        void aBlankSpecMatchesEverythingEvenOutsideARequest() {
            MatchSpec all = MatchSpec.parse("  ");
            assertThat(all).isSameAs(MatchSpec.ALL);
            assertThat(all.isAll()).isTrue();
            assertThat(all.matches(null)).isTrue();
            assertThat(all.matches(request().incoming())).isTrue();
            assertThat(all).hasToString("");
        }

        @Test
        void aConditionHoldsOnlyForItsExactValue() {
            MatchSpec free = MatchSpec.parse("jwt:plan=free");
            assertThat(free.isAll()).isFalse();
            assertThat(free).hasToString("jwt:plan=free");
            assertThat(free.matches(request().claim("plan", "free").incoming())).isTrue();
            assertThat(free.matches(request().claim("plan", "pro").incoming())).isFalse();
            assertThat(free.matches(request().claim("plan", "Free").incoming())).isFalse();
            assertThat(free.matches(request().claim("plan", "free ").incoming())).isFalse();
            assertThat(free.matches(request().incoming())).isFalse();
        }

        @Test
        void noConditionHoldsOutsideARequest() {
            assertThat(MatchSpec.parse("jwt:plan=free").matches(null)).isFalse();
            assertThat(MatchSpec.parse("principal=*").matches(null)).isFalse();
        }

        @Test
        void headerNamesAreCaseInsensitiveButValuesAreNot() {
            MatchSpec gold = MatchSpec.parse("HEADER:X-Tier = gold");
            assertThat(gold.matches(request().header("x-tier", "gold").incoming())).isTrue();
            assertThat(gold.matches(request().header("X-TIER", "gold").incoming())).isTrue();
            assertThat(gold.matches(request().header("X-Tier", "GOLD").incoming())).isFalse();
        }

        @Test
        void aStarOnlyAsksThatTheValueBePresent() {
            MatchSpec anyTier = MatchSpec.parse("query:tier=*");
            assertThat(anyTier.matches(request().query("tier", "x").incoming())).isTrue();
            assertThat(anyTier.matches(request().query("tier", "").incoming())).isTrue();
            assertThat(anyTier.matches(request().query("other", "x").incoming())).isFalse();
            MatchSpec signedIn = MatchSpec.parse("principal=*");
            assertThat(signedIn.matches(request().principal("alice").incoming())).isTrue();
            assertThat(signedIn.matches(request().incoming())).isFalse();
        }

        @Test
        void principalMatchesTheName() {
            MatchSpec alice = MatchSpec.parse("principal=alice");
            assertThat(alice.matches(request().principal("alice").incoming())).isTrue();
            assertThat(alice.matches(request().principal("bob").incoming())).isFalse();
        }

        @Test
        void everyConditionMustHold() {
            MatchSpec goldInEu = MatchSpec.parse("header:X-Tier=gold, jwt:region=eu");
            assertThat(goldInEu.matches(request().header("X-Tier", "gold").claim("region", "eu").incoming())).isTrue();
            assertThat(goldInEu.matches(request().header("X-Tier", "gold").claim("region", "us").incoming())).isFalse();
            assertThat(goldInEu.matches(request().header("X-Tier", "gold").incoming())).isFalse();
            assertThat(goldInEu.matches(request().claim("region", "eu").incoming())).isFalse();
        }

        @Test
        void aHeaderSentTwiceIsJudgedByItsFirstValue() {
            MatchSpec gold = MatchSpec.parse("header:X-Tier=gold");
            assertThat(gold.matches(request().header("X-Tier", "gold", "free").incoming())).isTrue();
            assertThat(gold.matches(request().header("X-Tier", "free", "gold").incoming())).isFalse();
        }

        @ParameterizedTest(name = "match {0}")
        @CsvSource(delimiter = '|', value = {
            "plan=free                  | plan=free",
            "jwt:plan                   | jwt:plan",
            "jwt:plan=                  | jwt:plan=",
            "jwt:plan=  *x,             | ''",
            "=free                      | =free",
            "ip=1.2.3.4                 | ip=1.2.3.4",
            "cookie:tier=gold           | cookie:tier=gold",
            "principal:alice=1          | principal:alice=1",
            "header:X Tier=gold         | header:X Tier=gold",
        })
        void refusesAConditionThatIsNotSourceEqualsValue(String spec, String condition) {
            assertThatThrownBy(() -> MatchSpec.parse(spec))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("'" + condition + "' is not a condition; use <source>=<value> with a source header:<name>, "
                            + "query:<name>, jwt:<claim> or principal, and * for any value");
        }
    }

    // ====================================================================== paths

    @Nested
    class Paths {

        @Test
        void aStarMatchesExactlyOneSegment() {
            PathPattern search = PathPattern.parse("/api/search/*");
            assertThat(search.matches("/api/search/books")).isTrue();
            assertThat(search.matches("/api/search/books/")).isTrue();
            assertThat(search.matches("/api/search")).isFalse();
            assertThat(search.matches("/api/search/")).isFalse();
            assertThat(search.matches("/api/search/books/1")).isFalse();
            assertThat(search.matches("/api/searches/books")).isFalse();
            assertThat(search.matches("/other/api/search/books")).isFalse();
            assertThat(search).hasToString("/api/search/*");
        }

        @Test
        void aStarMayBePartOfASegment() {
            PathPattern pdf = PathPattern.parse("/files/*.pdf");
            assertThat(pdf.matches("/files/report.pdf")).isTrue();
            assertThat(pdf.matches("/files/.pdf")).isTrue();
            assertThat(pdf.matches("/files/report.txt")).isFalse();
            assertThat(pdf.matches("/files/sub/report.pdf")).isFalse();
            assertThat(pdf.matches("/files/report.pdfx")).isFalse();
        }

        @Test
        void aDoubleStarSegmentMatchesAnyNumberOfSegmentsIncludingNone() {
            PathPattern api = PathPattern.parse("/api/**");
            assertThat(api.matches("/api")).isTrue();
            assertThat(api.matches("/api/")).isTrue();
            assertThat(api.matches("/api/search")).isTrue();
            assertThat(api.matches("/api/search/books/1")).isTrue();
            assertThat(api.matches("/apis")).isFalse();
            assertThat(api.matches("/ap")).isFalse();
            assertThat(api.matches("/")).isFalse();

            PathPattern items = PathPattern.parse("/api/**/items");
            assertThat(items.matches("/api/items")).isTrue();
            assertThat(items.matches("/api/a/items")).isTrue();
            assertThat(items.matches("/api/a/b/items")).isTrue();
            assertThat(items.matches("/api/items/1")).isFalse();
            assertThat(items.matches("/api/aitems")).isFalse();
        }

        @Test
        void theRootMatchesOnlyTheRootAndDoubleStarMatchesEverything() {
            PathPattern root = PathPattern.parse("/");
            assertThat(root.matches("/")).isTrue();
            assertThat(root.matches("")).isTrue();
            assertThat(root.matches("/api")).isFalse();
            PathPattern everything = PathPattern.parse("/**");
            assertThat(everything.matches("/")).isTrue();
            assertThat(everything.matches("/a/b/c")).isTrue();
        }

        @Test
        void onlyOneTrailingSlashOfThePathIsIgnored() {
            PathPattern books = PathPattern.parse("/api/books");
            assertThat(books.matches("/api/books")).isTrue();
            assertThat(books.matches("/api/books/")).isTrue();
            assertThat(books.matches("/api/books//")).isFalse();
        }

        /**
         * BUG: a pattern written with a trailing slash matches nothing at all: the request path loses
         * its trailing slash before matching, but the pattern keeps it.
         */
        @Test
        void aTrailingSlashInThePatternIsIgnoredToo() {
            PathPattern search = PathPattern.parse("/api/search/");
            assertThat(search.matches("/api/search/")).isTrue();
            assertThat(search.matches("/api/search")).isTrue();
            assertThat(search.matches("/api/search/books")).isFalse();
        }

        @Test
        void everythingButStarsIsLiteral() {
            PathPattern versioned = PathPattern.parse("/v1.0/a+b/(x)/*");
            assertThat(versioned.matches("/v1.0/a+b/(x)/y")).isTrue();
            assertThat(versioned.matches("/v1x0/a+b/(x)/y")).isFalse();
            assertThat(versioned.matches("/v1.0/aab/(x)/y")).isFalse();
            assertThat(PathPattern.parse("/a\\E.*").matches("/a\\E.x")).isTrue();
            assertThat(PathPattern.parse("/a\\E.*").matches("/a\\Exx")).isFalse();
            assertThat(PathPattern.parse("/API").matches("/api")).isFalse();
        }

        @Test
        void surroundingSpacesAreIgnored() {
            PathPattern search = PathPattern.parse("  /api/search/*  ");
            assertThat(search).hasToString("/api/search/*");
            assertThat(search.matches("/api/search/x")).isTrue();
        }

        @ParameterizedTest(name = "path {0}")
        @CsvSource(delimiter = '|', value = {
            "api/search     | 'api/search' must start with '/'",
            "a**            | 'a**' must start with '/'",
            "''             | '' must start with '/'",
            "*/x            | '*/x' must start with '/'",
            "/api/a**       | '/api/a**': ** must be a whole segment",
            "/api/**x/y     | '/api/**x/y': ** must be a whole segment",
            "/***           | '/***': ** must be a whole segment",
        })
        void refusesABadPattern(String glob, String message) {
            assertThatThrownBy(() -> PathPattern.parse(glob))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage(message);
        }
    }

    // ====================================================================== trusted proxies

    static TrustedProxies proxies(String... entries) {
        return TrustedProxies.parse(List.of(entries));
    }

    @Nested
    class Proxies {

        @Test
        void containsAddressesInItsRanges() {
            TrustedProxies trusted = proxies("10.0.0.0/8", "192.168.1.1", "172.16.0.0/12", "fd00::/8", "2001:db8::1");
            assertThat(trusted.isEmpty()).isFalse();
            assertThat(trusted.contains("10.0.0.0")).isTrue();
            assertThat(trusted.contains("10.255.255.255")).isTrue();
            assertThat(trusted.contains("11.0.0.0")).isFalse();
            assertThat(trusted.contains("192.168.1.1")).isTrue();
            assertThat(trusted.contains("192.168.1.2")).isFalse();
            assertThat(trusted.contains("172.31.255.255")).isTrue();
            assertThat(trusted.contains("172.32.0.0")).isFalse();
            assertThat(trusted.contains("172.15.255.255")).isFalse();
            assertThat(trusted.contains("fd12:3456::1")).isTrue();
            assertThat(trusted.contains("fe80::1")).isFalse();
            assertThat(trusted.contains("2001:0db8:0:0:0:0:0:1")).isTrue();
            assertThat(trusted.contains("2001:db8::2")).isFalse();
        }

        @Test
        void ipv4AndIpv6RangesNeverContainEachOther() {
            assertThat(proxies("0.0.0.0/0").contains("203.0.113.1")).isTrue();
            assertThat(proxies("0.0.0.0/0").contains("2001:db8::1")).isFalse();
            assertThat(proxies("::/0").contains("2001:db8::1")).isTrue();
            assertThat(proxies("::/0").contains("203.0.113.1")).isFalse();
        }

        @Test
        void anIpv4MappedAddressIsTheIpv4Address() {
            assertThat(proxies("10.0.0.0/8").contains("::ffff:10.1.2.3")).isTrue();
            assertThat(proxies("::ffff:10.1.2.3").contains("10.1.2.3")).isTrue();
        }

        @Test
        void hostBitsOfARangeDoNotMatter() {
            assertThat(proxies("10.1.2.3/8").contains("10.9.9.9")).isTrue();
        }

        @Test
        void containsNothingThatIsNotAnAddress() {
            TrustedProxies trusted = proxies("0.0.0.0/0", "::/0");
            assertThat(trusted.contains("")).isFalse();
            assertThat(trusted.contains("unknown")).isFalse();
            assertThat(trusted.contains("localhost")).isFalse();
            assertThat(trusted.contains("10.0.0.1:80")).isFalse();
            assertThat(trusted.contains(null)).isFalse();
        }

        @Test
        void anEmptyListTrustsNobody() {
            assertThat(proxies(" ", "")).isSameAs(TrustedProxies.NONE);
            assertThat(TrustedProxies.NONE.isEmpty()).isTrue();
            assertThat(TrustedProxies.NONE.contains("127.0.0.1")).isFalse();
        }

        @ParameterizedTest(name = "proxy {0}")
        @CsvSource(delimiter = '|', value = {
            "10.0.0.0/33          | '10.0.0.0/33' has a prefix length outside 0..32",
            "10.0.0.0/-1          | '10.0.0.0/-1' has a prefix length outside 0..32",
            "10.0.0.0/            | '10.0.0.0/' has a prefix length outside 0..32",
            "10.0.0.0/8/8         | '10.0.0.0/8/8' has a prefix length outside 0..32",
            "fd00::/129           | 'fd00::/129' has a prefix length outside 0..128",
            "example.com          | 'example.com' is not an IP address or CIDR range",
            "example.com/8        | 'example.com/8' is not an IP address or CIDR range",
            "10.0.0.256           | '10.0.0.256' is not an IP address or CIDR range",
            "10.0.0               | '10.0.0' is not an IP address or CIDR range",
            "fd00:::1             | 'fd00:::1' is not an IP address or CIDR range",
            "fe80::1%eth0         | 'fe80::1%eth0' is not an IP address or CIDR range",
        })
        void refusesAnEntryThatIsNotAnAddressOrRange(String entry, String message) {
            assertThatThrownBy(() -> proxies("127.0.0.1", entry))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage(message);
        }
    }

    // ====================================================================== client address

    @Nested
    class ClientAddresses {

        private final TrustedProxies trusted = proxies("10.0.0.0/8");
        private final TrustedProxies forwardedTrusted = trusted.withHeader(TrustedProxies.Header.FORWARDED);

        @Test
        void withoutTrustedProxiesItIsAlwaysThePeer() {
            FakeRequest r = request().from("203.0.113.9").header("X-Forwarded-For", "198.51.100.7")
                    .header("Forwarded", "for=198.51.100.8");
            assertThat(ClientAddress.of(r, TrustedProxies.NONE)).isEqualTo("203.0.113.9");
        }

        @Test
        void anUntrustedPeerIsTheClientWhateverItsHeadersSay() {
            FakeRequest r = request().from("203.0.113.9").header("X-Forwarded-For", "198.51.100.7, 10.0.0.2")
                    .header("Forwarded", "for=198.51.100.8");
            assertThat(ClientAddress.of(r, trusted)).isEqualTo("203.0.113.9");
            assertThat(ClientAddress.of(request().from("203.0.113.9").header("X-Forwarded-For", "198.51.100.7"), trusted))
                    .isEqualTo("203.0.113.9");
        }

        @Test
        void aTrustedPeerWithoutForwardingHeadersIsTheClient() {
            assertThat(ClientAddress.of(request().from("10.0.0.1"), trusted)).isEqualTo("10.0.0.1");
        }

        @Test
        void aTrustedPeerIsBelievedAboutWhoItServes() {
            FakeRequest r = request().from("10.0.0.1").header("X-Forwarded-For", "198.51.100.7");
            assertThat(ClientAddress.of(r, trusted)).isEqualTo("198.51.100.7");
        }

        @Test
        void walksFromTheRightPastTrustedHopsAndNeverFurther() {
            // the client wrote 6.6.6.6 itself; 198.51.100.7 is what the first trusted proxy saw
            FakeRequest r = request().from("10.0.0.1").header("X-Forwarded-For", "6.6.6.6, 198.51.100.7, 10.0.0.3, 10.0.0.2");
            assertThat(ClientAddress.of(r, trusted)).isEqualTo("198.51.100.7");
        }

        /** README: an address is a proxy by its range alone, so a client inside a trusted range picks its key. */
        @Test
        void aClientInsideATrustedRangeIsWalkedPastAndWhatItWroteIsTheKey() {
            // 10.9.9.9 is a client, not a proxy, but inside 10.0.0.0/8: the README says so, and says not to do this
            FakeRequest r = request().from("10.0.0.1").header("X-Forwarded-For", "6.6.6.6, 10.9.9.9");
            assertThat(ClientAddress.of(r, trusted)).isEqualTo("6.6.6.6");
            // an address outside the ranges stops the walk: what lies left of it is never used
            FakeRequest outside = request().from("10.0.0.1").header("X-Forwarded-For", "6.6.6.6, 198.51.100.7, 10.9.9.9");
            assertThat(ClientAddress.of(outside, trusted)).isEqualTo("198.51.100.7");
        }

        @Test
        void whenEveryHopIsTrustedItIsTheLeftmost() {
            FakeRequest r = request().from("10.0.0.1").header("X-Forwarded-For", "10.0.0.3, 10.0.0.2");
            assertThat(ClientAddress.of(r, trusted)).isEqualTo("10.0.0.3");
        }

        @Test
        void severalForwardedForHeadersFormOneChain() {
            FakeRequest r = request().from("10.0.0.1")
                    .header("X-Forwarded-For", "6.6.6.6, 198.51.100.7", "10.0.0.3", "10.0.0.2");
            assertThat(ClientAddress.of(r, trusted)).isEqualTo("198.51.100.7");
        }

        @Test
        void stripsPortsFromForwardedForEntries() {
            assertThat(ClientAddress.of(request().from("10.0.0.1").header("X-Forwarded-For", "198.51.100.7:5123"), trusted))
                    .isEqualTo("198.51.100.7");
            assertThat(ClientAddress.of(request().from("10.0.0.1").header("X-Forwarded-For", "[2001:db8::7]:443"), trusted))
                    .isEqualTo("2001:db8::7");
            assertThat(ClientAddress.of(request().from("10.0.0.1").header("X-Forwarded-For", "2001:db8:0:0:0:0:0:7"), trusted))
                    .isEqualTo("2001:db8::7");
            assertThat(ClientAddress.of(request().from("10.0.0.1").header("X-Forwarded-For", "198.51.100.7:1, 10.0.0.2:80"),
                    trusted)).isEqualTo("198.51.100.7");
        }

        @Test
        void readsOnlyTheHeaderTheProxiesWrite() {
            FakeRequest r = request().from("10.0.0.1").header("Forwarded", "for=198.51.100.9")
                    .header("X-Forwarded-For", "198.51.100.7");
            assertThat(ClientAddress.of(r, trusted)).isEqualTo("198.51.100.7");
            assertThat(ClientAddress.of(r, trusted.withHeader(TrustedProxies.Header.FORWARDED))).isEqualTo("198.51.100.9");
            // a client behind an X-Forwarded-For proxy cannot choose its key with a Forwarded header of its own
            FakeRequest spoof = request().from("10.0.0.1").header("Forwarded", "for=1.1.1.1").header("X-Forwarded-For", "198.51.100.7");
            assertThat(ClientAddress.of(spoof, trusted)).isEqualTo("198.51.100.7");
        }

        @Test
        void readsForwardedWithQuotedIpv6AndPorts() {
            String forwarded = "for=192.0.2.60;proto=http;by=203.0.113.43, for=\"[2001:db8:cafe::17]:4711\"";
            FakeRequest r = request().from("10.0.0.1").header("Forwarded", forwarded);
            assertThat(ClientAddress.of(r, forwardedTrusted)).isEqualTo("2001:db8:cafe::17");
            assertThat(ClientAddress.of(r, proxies("10.0.0.0/8", "2001:db8:cafe::/48").withHeader(TrustedProxies.Header.FORWARDED)))
                    .isEqualTo("192.0.2.60");
        }

        @Test
        void readsForwardedParametersInAnyOrderAndCase() {
            FakeRequest r = request().from("10.0.0.1")
                    .header("Forwarded", "proto=https; For=\"198.51.100.7:4711\" ;by=10.0.0.1", "FOR = 10.0.0.2");
            assertThat(ClientAddress.of(r, forwardedTrusted)).isEqualTo("198.51.100.7");
            FakeRequest bracketed = request().from("10.0.0.1").header("Forwarded", "for=\"[2001:DB8:0:0:0:0:0:7]\"");
            assertThat(ClientAddress.of(bracketed, forwardedTrusted)).isEqualTo("2001:db8::7");
        }

        /** A {@code Forwarded} header that names no client (only {@code proto}/{@code host}) does not hide {@code X-Forwarded-For}. */
        @Test
        void aForwardedHeaderWithoutForDoesNotHideXForwardedFor() {
            FakeRequest r = request().from("10.0.0.1").header("Forwarded", "proto=https;host=example.com")
                    .header("X-Forwarded-For", "198.51.100.7");
            assertThat(ClientAddress.of(r, trusted)).isEqualTo("198.51.100.7");
            // and read as the proxies' header it names no hop: the trusted peer is the client
            assertThat(ClientAddress.of(r, forwardedTrusted)).isEqualTo("10.0.0.1");
        }

        @Test
        void garbageLeftOfTheFirstUntrustedHopIsNeverRead() {
            FakeRequest r = request().from("10.0.0.1").header("X-Forwarded-For", "<script>, ;;, 198.51.100.7, 10.0.0.2");
            assertThat(ClientAddress.of(r, trusted)).isEqualTo("198.51.100.7");
        }

        @Test
        void aHopThatIsNotAnAddressEndsTheWalkAndIsShortened() {
            FakeRequest unknown = request().from("10.0.0.1").header("Forwarded", "for=unknown");
            assertThat(ClientAddress.of(unknown, forwardedTrusted)).isEqualTo("unknown");
            FakeRequest obfuscated = request().from("10.0.0.1").header("Forwarded", "for=\"_hidden\", for=10.0.0.2");
            assertThat(ClientAddress.of(obfuscated, forwardedTrusted)).isEqualTo("_hidden");
            String huge = "g".repeat(1000);
            FakeRequest garbage = request().from("10.0.0.1").header("X-Forwarded-For", "198.51.100.7, " + huge);
            assertThat(ClientAddress.of(garbage, trusted)).isEqualTo("g".repeat(64));
        }

        @Test
        void onlyTheLast32HopsAreExamined() {
            // 198.51.100.1 is 33rd from the right: it is never reached, the walk stops at the 32nd hop
            String thirtyTwoProxies = IntStream.rangeClosed(1, 32).mapToObj(i -> "10.0.1." + i).collect(Collectors.joining(", "));
            FakeRequest tooDeep = request().from("10.0.0.1").header("X-Forwarded-For", "198.51.100.1, " + thirtyTwoProxies);
            assertThat(ClientAddress.of(tooDeep, trusted)).isEqualTo("10.0.1.1");

            String thirtyOneProxies = IntStream.rangeClosed(2, 32).mapToObj(i -> "10.0.1." + i).collect(Collectors.joining(", "));
            FakeRequest deepest = request().from("10.0.0.1").header("X-Forwarded-For", "198.51.100.1, " + thirtyOneProxies);
            assertThat(ClientAddress.of(deepest, trusted)).isEqualTo("198.51.100.1");
        }

        @Test
        void aHugeForwardedHeaderIsCutToItsLast32Hops() {
            String spoofed = IntStream.range(0, 10_000).mapToObj(i -> "for=198.51.100.1").collect(Collectors.joining(", "));
            String proxiesPart = IntStream.rangeClosed(1, 32).mapToObj(i -> "for=10.0.2." + i).collect(Collectors.joining(", "));
            FakeRequest r = request().from("10.0.0.1").header("Forwarded", spoofed + ", " + proxiesPart);
            assertThat(ClientAddress.of(r, forwardedTrusted)).isEqualTo("10.0.2.1");
        }

        @Test
        void anIpv4MappedPeerIsItsIpv4Address() {
            assertThat(ClientAddress.of(request().from("::ffff:203.0.113.9"), TrustedProxies.NONE)).isEqualTo("203.0.113.9");
            FakeRequest viaProxy = request().from("::ffff:10.0.0.1").header("X-Forwarded-For", "::ffff:198.51.100.7");
            assertThat(ClientAddress.of(viaProxy, trusted)).isEqualTo("198.51.100.7");
        }

        @ParameterizedTest(name = "{0} is {1}")
        @CsvSource({
            "2001:0db8:0000:0000:0000:0000:0000:0001, 2001:db8::1",
            "0:0:0:0:0:0:0:1, ::1",
            "::1, ::1",
            "0:0:0:0:0:0:0:0, ::",
            "1:0:0:0:0:0:0:0, 1::",
            "2001:DB8::A, 2001:db8::a",
            "2001:db8:0:0:1:0:0:1, 2001:db8::1:0:0:1",
            "2001:db8:0:0:0:1:0:0, 2001:db8::1:0:0",
            "2001:db8:0:1:1:1:1:1, 2001:db8:0:1:1:1:1:1",
            "203.0.113.9, 203.0.113.9",
        })
        void aPeerAddressIsWrittenInItsCanonicalForm(String peer, String canonical) {
            assertThat(ClientAddress.of(request().from(peer), TrustedProxies.NONE)).isEqualTo(canonical);
        }

        @Test
        void aPeerThatIsNotAnAddressIsKeptShortened() {
            assertThat(ClientAddress.of(request().from(null), TrustedProxies.NONE)).isEmpty();
            assertThat(ClientAddress.of(request().from("fe80::1%eth0"), TrustedProxies.NONE)).isEqualTo("fe80::1%eth0");
            assertThat(ClientAddress.of(request().from("h".repeat(100)), TrustedProxies.NONE)).isEqualTo("h".repeat(64));
        }

        @Test
        void anIncomingRequestWorksOutItsClientAddressOnceAndOnlyWhenAsked() {
            FakeRequest view = request().from("10.0.0.1").header("X-Forwarded-For", "198.51.100.7");
            IncomingRequest incoming = new IncomingRequest(view, trusted);
            assertThat(view.remoteAddressReads).isZero();
            assertThat(incoming.view()).isSameAs(view);
            assertThat(incoming.clientAddress()).isEqualTo("198.51.100.7");
            assertThat(incoming.clientAddress()).isEqualTo("198.51.100.7");
            assertThat(view.remoteAddressReads).isEqualTo(1);
        }

        @Test
        void theIpKeyPartIsTheClientAddress() {
            IncomingRequest incoming = new IncomingRequest(
                    request().from("10.0.0.1").header("X-Forwarded-For", "198.51.100.7"), trusted);
            assertThat(KeySpec.parse("ip").resolve("r", incoming, null, new Object[0], name -> null)).isEqualTo("198.51.100.7");
        }
    }
}
