package io.tollgate.readme;

import io.tollgate.testing.MapSettings;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/** Tollgate's settings from the text of a properties file, read as {@link Properties} reads it (names in order). */
public final class PropertiesSettings extends MapSettings {

    public PropertiesSettings(String text) {
        super(load(text));
    }

    private static Map<String, String> load(String text) {
        Properties properties = new Properties();
        try {
            properties.load(new StringReader(text));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> sorted = new TreeMap<>();
        properties.stringPropertyNames().forEach(name -> sorted.put(name, properties.getProperty(name)));
        return sorted;
    }
}
