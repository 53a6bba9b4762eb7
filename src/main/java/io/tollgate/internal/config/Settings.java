package io.tollgate.internal.config;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** Where properties come from: MicroProfile Config at runtime, a map in the simulator and the tests. */
public interface Settings {

    /** @return the value of {@code name}, looked up with the source's usual mapping (env vars included) */
    Optional<String> get(String name);

    /** @return every property name the sources know, for discovering rules and spotting typos */
    Iterable<String> names();

    /** @return the properties of {@code properties}, a copy, listed in its order */
    static Settings of(Map<String, String> properties) {
        Map<String, String> copy = new LinkedHashMap<>(properties);
        return new Settings() {
            @Override
            public Optional<String> get(String name) {
                return Optional.ofNullable(copy.get(name));
            }

            @Override
            public Iterable<String> names() {
                return copy.keySet();
            }
        };
    }
}
