package io.tollgate.internal.request;

import static io.tollgate.testing.FakeRequest.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.RateLimitKeyResolver;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
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
