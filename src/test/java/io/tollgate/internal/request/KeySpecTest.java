package io.tollgate.internal.request;

import static io.tollgate.testing.FakeRequest.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.RateLimitKeyResolver;
import io.tollgate.RateLimitKeys;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code key}: which parts of a request a key reads, composite keys and resolvers. */
class KeySpecTest {

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
    void aCompositeKeyIsItsPartsInOrderJoinedByCommas() {
        IncomingRequest r = request().header("X-Api-Key", "k1").path("/p").from("203.0.113.9").incoming();
        assertThat(key("header:X-Api-Key, path", r)).isEqualTo("k1,/p");
        assertThat(key("path, header:X-Api-Key", r)).isEqualTo("/p,k1");
        assertThat(key("ip,path,global", r)).isEqualTo("203.0.113.9,/p,");
        assertThat(key("header:X-Api-Key, path", request().header("X-Api-Key", "50%off").path("/items/a,b").incoming()))
                .isEqualTo("50%25off,/items/a%2Cb");
        assertThat(key("header:X-Api-Key, path", r)).as("what the public helper builds")
                .isEqualTo(RateLimitKeys.composite("k1", "/p"));
    }

    @Test
    void aSinglePartIsNotEscaped() {
        assertThat(key("header:X-Api-Key", request().header("X-Api-Key", "a,b%2C").incoming())).isEqualTo("a,b%2C");
        assertThat(RateLimitKeys.composite("a,b%2C")).isEqualTo("a,b%2C");
    }

    @Test
    void compositeKeysCannotCollideWhateverTheValuesContain() {
        String spec = "header:A, header:B";
        String first = key(spec, request().header("A", "a,b").header("B", "c").incoming());
        String second = key(spec, request().header("A", "a").header("B", "b,c").incoming());
        String third = key(spec, request().header("A", "a%2Cb").header("B", "c").incoming());
        String fourth = key(spec, request().header("A", "").header("B", "a,").incoming());
        String fifth = key(spec, request().header("A", "a,").header("B", "").incoming());
        assertThat(first).isEqualTo("a%2Cb,c");
        assertThat(second).isEqualTo("a,b%2Cc");
        assertThat(third).isEqualTo("a%252Cb,c");
        assertThat(fourth).isEqualTo(",a%2C");
        assertThat(fifth).isEqualTo("a%2C,");
        assertThat(List.of(first, second, third, fourth, fifth)).doesNotHaveDuplicates();
    }

    /**
     * Every tuple of parts over the characters that matter ({@code ,}, {@code %}, the hex digits of the escapes, a
     * letter), up to three characters a part, two and three parts: no two tuples give one key, and the key splits back
     * into its parts.
     */
    @Test
    void distinctPartsNeverGiveTheSameKey() {
        List<String> values = strings("%,2C5a", 3);
        Map<String, List<String>> seen = new HashMap<>();
        for (String a : values) {
            for (String b : values) {
                assertUnique(seen, List.of(a, b));
            }
        }
        List<String> shorter = strings("%,2C", 2);
        for (String a : shorter) {
            for (String b : shorter) {
                for (String c : shorter) {
                    assertUnique(seen, List.of(a, b, c));
                }
            }
        }
        assertThat(seen).hasSize(values.size() * values.size() + shorter.size() * shorter.size() * shorter.size());
    }

    private static void assertUnique(Map<String, List<String>> seen, List<String> parts) {
        String key = RateLimitKeys.composite(parts);
        List<String> before = seen.put(key, parts);
        assertThat(before).as("key %s of %s", key, parts).isNull();
        assertThat(split(key)).as("key %s", key).isEqualTo(parts);
    }

    /** The inverse the README describes: split at each ',', then %2C is ',' and %25 is '%'. */
    private static List<String> split(String key) {
        List<String> parts = new ArrayList<>();
        for (String part : key.split(",", -1)) {
            parts.add(part.replace("%2C", ",").replace("%25", "%"));
        }
        return parts;
    }

    /** @return every string of at most {@code length} characters of {@code alphabet}, the empty one included */
    private static List<String> strings(String alphabet, int length) {
        List<String> all = new ArrayList<>(List.of(""));
        List<String> last = List.of("");
        for (int n = 1; n <= length; n++) {
            List<String> next = new ArrayList<>();
            for (String prefix : last) {
                for (char c : alphabet.toCharArray()) {
                    next.add(prefix + c);
                }
            }
            all.addAll(next);
            last = next;
        }
        return all;
    }

    @Test
    void aMissingPartIsTheEmptyString() {
        IncomingRequest r = request().path("/p").incoming();
        assertThat(key("header:X-Api-Key", r)).isEmpty();
        assertThat(key("query:apiKey", r)).isEmpty();
        assertThat(key("jwt:tenant", r)).isEmpty();
        assertThat(key("principal", r)).isEmpty();
        assertThat(key("header:X-Api-Key, path", r)).isEqualTo(",/p");
    }

    @Test
    void withoutARequestEveryRequestPartIsTheEmptyString() {
        for (String spec : List.of("ip", "path", "principal", "header:X", "query:x", "jwt:sub", "global")) {
            assertThat(key(spec, null)).as(spec).isEmpty();
        }
        assertThat(key("ip, path, header:X", null)).isEqualTo(",,");
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
                name -> (rule, m, args) -> null)).isEqualTo(",203.0.113.9");
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
