package io.tollgate.testing;

import io.tollgate.internal.config.ConfigReader;
import io.tollgate.internal.config.TollgateConfig;
import java.util.List;
import java.util.Map;

/** Tollgate's configuration read from a plain map of properties, as the deployment would read it. */
public final class TestRules {

    private TestRules() {
    }

    public static TollgateConfig read(Map<String, String> properties) {
        return ConfigReader.read(MapSettings.of(properties), List.of());
    }
}
