package io.tollgate.internal.config;

import java.util.ArrayList;
import java.util.List;

/** Collects configuration problems so a deployment reports all of them at once. */
final class Problems {

    private final List<String> lines = new ArrayList<>();

    void add(String property, String value, String reason) {
        lines.add(property + " = " + (value == null ? "(not set)" : "'" + value + "'") + ": " + reason);
    }

    void missing(String property, String reason) {
        lines.add(property + " is not set: " + reason);
    }

    int count() {
        return lines.size();
    }

    void throwIfAny() {
        if (!lines.isEmpty()) {
            throw new InvalidConfigurationException(lines);
        }
    }
}
