package io.tollgate.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.tollgate.testing.MapSettings;
import java.util.Collection;
import java.util.List;

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
    static final String MATCH_HELP = " is not a condition; use <source>=<value> or <source>!=<value> with a source "
            + "header:<name>, query:<name>, jwt:<claim>, principal, method, ip or role, | between values and * for any value";

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
}
