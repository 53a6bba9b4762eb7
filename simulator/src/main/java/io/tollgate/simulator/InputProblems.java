package io.tollgate.simulator;

import java.util.ArrayList;
import java.util.List;

/** Collects problems of an input so all of them are reported at once, each with its property and value. */
public final class InputProblems {

    private final List<String> lines = new ArrayList<>();
    private String rulesReport;
    private final List<String> ruleLines = new ArrayList<>();

    public void add(String property, String value, String reason) {
        lines.add(property + " = " + (value == null ? "(not set)" : "'" + value + "'") + ": " + reason);
    }

    public void missing(String property, String reason) {
        lines.add(property + " is not set: " + reason);
    }

    /** The rules' problems, exactly as Tollgate's configuration reader reported them at deployment. */
    public void rules(String report, List<String> problems) {
        rulesReport = report;
        ruleLines.addAll(problems);
    }

    public boolean isEmpty() {
        return lines.isEmpty() && rulesReport == null;
    }

    /** @throws InvalidInputException if there is any problem */
    public void throwIfAny(String what) {
        if (isEmpty()) {
            return;
        }
        StringBuilder message = new StringBuilder();
        if (rulesReport != null) {
            message.append(rulesReport);
        }
        if (!lines.isEmpty()) {
            if (message.length() > 0) {
                message.append('\n');
            }
            message.append("Invalid ").append(what).append(" (").append(lines.size())
                    .append(lines.size() == 1 ? " problem):" : " problems):");
            for (String line : lines) {
                message.append("\n  ").append(line);
            }
        }
        List<String> all = new ArrayList<>(ruleLines);
        all.addAll(lines);
        throw new InvalidInputException(message.toString(), all);
    }
}
