package io.tollgate.internal.config;

import java.util.ArrayList;
import java.util.List;

/** Collects configuration problems so a deployment reports all of them at once. */
final class ConfigProblems {

    private final List<ConfigProblem> problems = new ArrayList<>();

    void add(ConfigProblem problem) {
        problems.add(problem);
    }

    void invalid(String property, String value, String reason) {
        add(new ConfigProblem.Invalid(property, value, reason));
    }

    void missing(String property, String reason) {
        add(new ConfigProblem.Missing(property, reason));
    }

    int count() {
        return problems.size();
    }

    /** @throws InvalidConfigurationException listing every problem, if there is one */
    void throwIfAny() {
        if (!problems.isEmpty()) {
            throw new InvalidConfigurationException(problems.stream().map(ConfigProblem::line).toList());
        }
    }
}
