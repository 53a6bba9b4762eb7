package io.tollgate.internal.core;

/**
 * A limit, rule or request value that cannot be used. The message names the field and the
 * offending value, e.g. {@code "burst = 0: must be at least 1"}.
 */
public final class InvalidDefinitionException extends IllegalArgumentException {

    private final String field;
    private final String reason;

    InvalidDefinitionException(String field, Object value, String reason) {
        super(field + " = " + value + ": " + reason);
        this.field = field;
        this.reason = reason;
    }

    static InvalidDefinitionException of(String field, Object value, String reason) {
        return new InvalidDefinitionException(field, value, reason);
    }

    /** @return the name of the field that holds the bad value */
    public String field() {
        return field;
    }

    /** @return why the value cannot be used, without the field and the value */
    public String reason() {
        return reason;
    }
}
