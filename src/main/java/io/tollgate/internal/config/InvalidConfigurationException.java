package io.tollgate.internal.config;

import java.util.List;

/**
 * Every problem found in Tollgate's configuration, each naming the property and its value,
 * e.g. {@code tollgate.rules.search.rate = abc: not a rate}. Thrown at deployment, never later.
 */
public final class InvalidConfigurationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    InvalidConfigurationException(List<String> problems) {
        super(format(problems));
        this.problems = List.copyOf(problems);
    }

    /** @return one line per problem */
    public List<String> problems() {
        return problems;
    }

    private static String format(List<String> problems) {
        StringBuilder message = new StringBuilder("Invalid Tollgate configuration (")
                .append(problems.size()).append(problems.size() == 1 ? " problem):" : " problems):");
        for (String problem : problems) {
            message.append("\n  ").append(problem);
        }
        return message.toString();
    }
}
