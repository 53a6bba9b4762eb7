package io.tollgate.testing;

import io.tollgate.internal.config.Settings;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Tollgate's properties in a map, listed in the order given; {@link #hidden} ones are found by name
 * but not listed, like environment variables.
 */
public class MapSettings implements Settings {

    private final Map<String, String> listed = new LinkedHashMap<>();
    private final Map<String, String> hidden = new LinkedHashMap<>();

    protected MapSettings(Map<String, String> properties) {
        listed.putAll(properties);
    }

    /** @return the properties of {@code properties} */
    public static MapSettings of(Map<String, String> properties) {
        return new MapSettings(properties);
    }

    /** @return the properties named and valued in turn: name, value, name, value... */
    public static MapSettings of(String... namesAndValues) {
        Map<String, String> properties = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            properties.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return new MapSettings(properties);
    }

    /** @return these settings with {@code name} found but not listed */
    public MapSettings hidden(String name, String value) {
        hidden.put(name, value);
        return this;
    }

    @Override
    public Optional<String> get(String name) {
        return Optional.ofNullable(listed.containsKey(name) ? listed.get(name) : hidden.get(name));
    }

    @Override
    public Iterable<String> names() {
        return listed.keySet();
    }
}
