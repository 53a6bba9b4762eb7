package io.tollgate.testing;

import io.tollgate.internal.config.ConfigReader;
import io.tollgate.internal.config.Settings;
import io.tollgate.internal.config.TollgateConfig;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Tollgate's configuration read from a plain map of properties, as the deployment would read it. */
public final class TestRules {

    private TestRules() {
    }

    public static TollgateConfig read(Map<String, String> properties) {
        Settings settings = new Settings() {
            @Override
            public Optional<String> get(String name) {
                return Optional.ofNullable(properties.get(name));
            }

            @Override
            public Iterable<String> names() {
                return properties.keySet();
            }
        };
        return ConfigReader.read(settings, List.of());
    }
}
