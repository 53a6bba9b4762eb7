package io.tollgate.internal.config;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One thing wrong with the configuration, named by its property. */
sealed interface ConfigProblem {

    String property();

    /** @return the line the deployment failure lists */
    String line();

    /** A value that cannot be used. */
    record Invalid(String property, String value, String reason) implements ConfigProblem {

        /** What a comment at the end of a line in a properties file becomes: part of the value. */
        private static final Pattern TRAILING_COMMENT = Pattern.compile("\\s([#!].*)$");

        @Override
        public String line() {
            return property + " = '" + value + "': " + reason + commentHint();
        }

        /** A rejected value that looks like it carries a trailing comment gets the reason why it does. */
        private String commentHint() {
            Matcher comment = TRAILING_COMMENT.matcher(value.strip());
            return !comment.find() ? "" : "; a properties file has no end-of-line comments, so '"
                    + comment.group(1) + "' is part of the value: put the comment on a line of its own";
        }
    }

    /** A property that must be set and is not. */
    record Missing(String property, String reason) implements ConfigProblem {

        @Override
        public String line() {
            return property + " is not set: " + reason;
        }
    }

    /** Annotations that give a rule's attribute different values, which configuration does not settle. */
    record Disagreement(String property, RuleDefaults.Conflict conflict) implements ConfigProblem {

        @Override
        public String line() {
            return property + " = (not set): annotations disagree (" + conflict + "); set it in configuration or make them agree";
        }
    }
}
