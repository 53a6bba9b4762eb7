package io.tollgate.internal.config;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Collects configuration problems so a deployment reports all of them at once. */
final class Problems {

    /** What a comment at the end of a line in a properties file becomes: part of the value. */
    private static final Pattern TRAILING_COMMENT = Pattern.compile("\\s([#!].*)$");

    private final List<String> lines = new ArrayList<>();

    void add(String property, String value, String reason) {
        lines.add(property + " = " + (value == null ? "(not set)" : "'" + value + "'") + ": " + reason + commentHint(value));
    }

    /** A rejected value that looks like it carries a trailing comment gets the reason why it does. */
    private static String commentHint(String value) {
        Matcher comment = value == null ? null : TRAILING_COMMENT.matcher(value.strip());
        return comment == null || !comment.find() ? "" : "; a properties file has no end-of-line comments, so '"
                + comment.group(1) + "' is part of the value: put the comment on a line of its own";
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
