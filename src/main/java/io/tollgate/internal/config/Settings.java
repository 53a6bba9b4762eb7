package io.tollgate.internal.config;

import java.util.Optional;

/** Where properties come from: MicroProfile Config at runtime, a map in tests. */
public interface Settings {

    /** @return the value of {@code name}, looked up with the source's usual mapping (env vars included) */
    Optional<String> get(String name);

    /** @return every property name the sources know, for discovering rules and spotting typos */
    Iterable<String> names();
}
