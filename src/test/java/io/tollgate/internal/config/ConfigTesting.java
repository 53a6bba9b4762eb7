package io.tollgate.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.tollgate.internal.request.IncomingRequest;
import io.tollgate.internal.request.RequestView;
import io.tollgate.internal.request.TrustedProxies;
import io.tollgate.testing.MapSettings;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the configuration tests share: reading properties given as name, value, name, value..., the
 * problem lines an invalid configuration gives, the reasons they repeat, and a request to resolve against.
 */
final class ConfigTesting {

    /** The properties of the rule {@code search}. */
    static final String RULE = "tollgate.rules.search.";
    static final String RATE_HELP = "use tokens per second (10, 0.5) or <tokens>/<period> (1000/1h, 5/100ms)";
    static final String KEY_HELP = " is not a key; use ip, principal, header:<name>, query:<name>, jwt:<claim>, path, "
            + "global or resolver:<class>, comma-separated for a composite key";
    static final String MATCH_HELP = " is not a condition; use <source>=<value> with a source header:<name>, "
            + "query:<name>, jwt:<claim> or principal, and * for any value";

    private ConfigTesting() {
    }

    static TollgateConfig read(String... namesAndValues) {
        return read(List.of(), namesAndValues);
    }

    static TollgateConfig read(Collection<RuleDefaults> annotations, String... namesAndValues) {
        return ConfigReader.read(MapSettings.of(namesAndValues), annotations);
    }

    /** @return the problem lines of a configuration that must be invalid */
    static List<String> problems(String... namesAndValues) {
        return problems(List.of(), namesAndValues);
    }

    static List<String> problems(Collection<RuleDefaults> annotations, String... namesAndValues) {
        InvalidConfigurationException e = catchThrowableOfType(InvalidConfigurationException.class,
                () -> read(annotations, namesAndValues));
        assertThat(e).as("an InvalidConfigurationException").isNotNull();
        return e.problems();
    }

    /** Just enough of a request to see what a resolved key, cost or match reads. */
    static final class Request implements RequestView {
        private final Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        private final Map<String, String> claims = new LinkedHashMap<>();
        private String path = "/";

        Request header(String name, String value) {
            headers.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
            return this;
        }

        Request claim(String name, String value) {
            claims.put(name, value);
            return this;
        }

        Request path(String path) {
            this.path = path;
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
            return List.of();
        }

        @Override
        public String principal() {
            return null;
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
            return "198.51.100.7";
        }
    }
}
