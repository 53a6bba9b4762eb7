package io.tollgate.internal.request;

import java.util.List;

/**
 * Which requests a rule applies to: {@linkplain Condition conditions} joined by commas, all of which must
 * hold, e.g. {@code jwt:plan=free} or {@code header:X-Tier=gold, method=POST|PUT, ip!=10.0.0.0/8}.
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
     * @throws IllegalArgumentException with the reason, for a condition that is malformed
     */
    public static MatchSpec parse(String text) {
        if (text.isBlank()) {
            return ALL;
        }
        return new MatchSpec(Condition.parseList(text), text.trim());
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
            if (!condition.holds(request)) {
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
}
