package io.tollgate.simulator;

import java.util.List;

/**
 * Everything wrong with a scenario, a rules file or a command line, each problem on a line naming
 * the property (or option) and its value. Nothing has run when it is thrown.
 */
public final class InvalidInputException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    public InvalidInputException(String message, List<String> problems) {
        super(message);
        this.problems = List.copyOf(problems);
    }

    /** @return one line per problem (the rules' own lines, as Tollgate reports them, among them) */
    public List<String> problems() {
        return problems;
    }
}
