package io.tollgate.internal.request;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Which requests a rule applies to: conditions {@code <source>=<value>} joined by commas, all of
 * which must hold, e.g. {@code jwt:plan=free} or {@code header:X-Tier=gold, jwt:region=eu}.
 * {@code <source>=*} only asks that the value be present. Outside an HTTP request no condition holds.
 */
public final class MatchSpec {

    /** Matches every request, and calls outside a request too. */
    public static final MatchSpec ALL = new MatchSpec(List.of(), "");

    private final List<Condition> conditions;
    private final String text;

    private MatchSpec(List<Condition> conditions, String text) {
        this.conditions = conditions;
        this.text = text;
    }

    /**
     * @throws IllegalArgumentException with the reason, for a condition that is not {@code <source>=<value>}
     */
    public static MatchSpec parse(String text) {
        if (text.isBlank()) {
            return ALL;
        }
        List<Condition> conditions = new ArrayList<>();
        for (String raw : text.split(",", -1)) {
            String condition = raw.trim();
            int eq = condition.indexOf('=');
            Source source = eq <= 0 ? null
                    : Source.parse(condition.substring(0, eq), Source.Kind.HEADER, Source.Kind.QUERY, Source.Kind.JWT, Source.Kind.PRINCIPAL);
            String expected = eq <= 0 ? "" : condition.substring(eq + 1).trim();
            if (source == null || expected.isEmpty()) {
                throw new IllegalArgumentException("'" + condition + "' is not a condition; use <source>=<value> with a source "
                        + "header:<name>, query:<name>, jwt:<claim> or principal, and * for any value");
            }
            conditions.add(new Condition(source, expected));
        }
        return new MatchSpec(Collections.unmodifiableList(conditions), text.trim());
    }

    /** @return whether every condition holds for {@code request} ({@code null}: outside a request) */
    public boolean matches(IncomingRequest request) {
        if (conditions.isEmpty()) {
            return true;
        }
        if (request == null) {
            return false;
        }
        for (Condition condition : conditions) {
            String actual = condition.source.value(request.view());
            if (actual == null || !(condition.expected.equals("*") || condition.expected.equals(actual))) {
                return false;
            }
        }
        return true;
    }

    /** @return whether this matches everything */
    public boolean isAll() {
        return conditions.isEmpty();
    }

    @Override
    public String toString() {
        return text;
    }

    private static final class Condition {
        final Source source;
        final String expected;

        Condition(Source source, String expected) {
            this.source = source;
            this.expected = expected;
        }
    }
}
