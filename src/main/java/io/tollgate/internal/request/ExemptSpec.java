package io.tollgate.internal.request;

import java.util.List;

/**
 * Which requests a rule lets through untouched: {@linkplain Condition conditions} (the syntax of
 * {@link MatchSpec}) joined by commas, any one of which exempts, e.g. {@code ip=10.0.0.0/8, role=admin}
 * (internal callers, and administrators wherever they are). Outside an HTTP request no condition holds,
 * so nothing is exempt.
 */
public final class ExemptSpec {

    /** Exempts nothing. */
    public static final ExemptSpec NONE = new ExemptSpec(List.of(), "");

    private final List<Condition> conditions;
    private final String text;

    private ExemptSpec(List<Condition> conditions, String text) {
        this.conditions = conditions;
        this.text = text;
    }

    /**
     * @throws IllegalArgumentException with the reason, for a condition that is malformed
     */
    public static ExemptSpec parse(String text) {
        if (text.isBlank()) {
            return NONE;
        }
        return new ExemptSpec(Condition.parseList(text), text.trim());
    }

    /** @return whether one of the conditions holds for {@code request} ({@code null}: outside a request) */
    public boolean exempts(IncomingRequest request) {
        if (request == null) {
            return false;
        }
        for (Condition condition : conditions) {
            if (condition.holds(request)) {
                return true;
            }
        }
        return false;
    }

    /** @return whether this exempts nothing */
    public boolean isNone() {
        return conditions.isEmpty();
    }

    @Override
    public String toString() {
        return text;
    }
}
