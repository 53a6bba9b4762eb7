package io.tollgate.internal.cdi;

import io.tollgate.internal.config.Settings;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;

/** {@link Settings} over MicroProfile Config: every source, environment variables included. */
final class MicroProfileSettings implements Settings {

    private final Config config;

    MicroProfileSettings(Config config) {
        this.config = config;
    }

    @Override
    public Optional<String> get(String name) {
        return config.getOptionalValue(name, String.class);
    }

    @Override
    public Iterable<String> names() {
        return config.getPropertyNames();
    }
}
