package io.tollgate.readme;

import io.tollgate.internal.config.Settings;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeSet;

/** Tollgate's settings from the text of a properties file, read as {@link Properties} reads it (names in order). */
public final class PropertiesSettings implements Settings {

    private final Properties properties = new Properties();

    public PropertiesSettings(String text) {
        try {
            properties.load(new StringReader(text));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public Optional<String> get(String name) {
        return Optional.ofNullable(properties.getProperty(name));
    }

    @Override
    public Iterable<String> names() {
        return new TreeSet<>(properties.stringPropertyNames());
    }
}
