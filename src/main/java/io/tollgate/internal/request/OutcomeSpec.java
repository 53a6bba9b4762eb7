package io.tollgate.internal.request;

import java.util.List;

/**
 * Outcomes a rule's {@code charge-on} or {@code refund-on} names, comma-separated, any of which may hold:
 * {@code status:<code>} (100 to 599), {@code status:<N>xx} (a class, {@code 1xx} to {@code 5xx}) and
 * {@code exception:<class>} (the limited method threw an instance of that class, found at deployment).
 */
public final class OutcomeSpec {

    private final List<Condition> conditions;
    private final String text;

    private OutcomeSpec(List<Condition> conditions, String text) {
        this.conditions = List.copyOf(conditions);
        this.text = text;
    }

    /** @return the outcomes any of {@code conditions} names; {@code text} is how configuration wrote them */
    public static OutcomeSpec of(List<Condition> conditions, String text) {
        if (conditions.isEmpty()) {
            throw new IllegalArgumentException(EMPTY);
        }
        return new OutcomeSpec(conditions, text.trim());
    }

    /** What a list without a condition is told. */
    public static final String EMPTY = "empty; give one or more of status:<code>, status:<N>xx or exception:<class>, comma-separated";

    /**
     * @param item   one condition as written
     * @param loader where {@code exception:} classes are looked for: the application's
     * @throws IllegalArgumentException with the reason, for anything else
     */
    public static Condition condition(String item, ClassLoader loader) {
        int colon = item.indexOf(':');
        String kind = colon < 0 ? "" : item.substring(0, colon).trim().toLowerCase(java.util.Locale.ROOT);
        String value = colon < 0 ? "" : item.substring(colon + 1).trim();
        if (kind.equals("status")) {
            return status(value);
        }
        if (kind.equals("exception") && !value.isEmpty()) {
            return new Condition(0, 0, exception(value, loader));
        }
        throw new IllegalArgumentException("not an outcome; use status:<code> (100 to 599), status:<N>xx (1xx to 5xx) "
                + "or exception:<fully qualified class name>");
    }

    private static Condition status(String value) {
        if (value.matches("[1-5][xX][xX]")) {
            int from = (value.charAt(0) - '0') * 100;
            return new Condition(from, from + 99, null);
        }
        if (!value.matches("\\d{3}")) {
            throw new IllegalArgumentException("not a status; use a code from 100 to 599 or a class 1xx to 5xx");
        }
        int code = Integer.parseInt(value);
        if (code < 100 || code > 599) {
            throw new IllegalArgumentException("a status code is 100 to 599");
        }
        return new Condition(code, code, null);
    }

    private static Class<?> exception(String name, ClassLoader loader) {
        Class<?> type;
        try {
            type = Class.forName(name, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalArgumentException("no class " + name + " in the application");
        }
        if (!Throwable.class.isAssignableFrom(type)) {
            throw new IllegalArgumentException(name + " is not an exception (no Throwable)");
        }
        return type;
    }

    /** @return whether one of the conditions holds for {@code result} */
    public boolean matches(CallResult result) {
        for (Condition condition : conditions) {
            if (condition.matches(result)) {
                return true;
            }
        }
        return false;
    }

    /** @return whether a condition asks for a status, which only an HTTP response has */
    public boolean asksStatus() {
        return conditions.stream().anyMatch(c -> c.exception() == null);
    }

    @Override
    public String toString() {
        return text;
    }

    /**
     * One outcome: a status from {@code from} to {@code to}, or an exception of type {@code exception}.
     *
     * @param exception the class thrown, or {@code null} for a status
     */
    public record Condition(int from, int to, Class<?> exception) {

        boolean matches(CallResult result) {
            if (exception != null) {
                return exception.isInstance(result.thrown());
            }
            return result.status() >= from && result.status() <= to;
        }
    }
}
