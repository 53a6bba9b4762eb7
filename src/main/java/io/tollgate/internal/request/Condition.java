package io.tollgate.internal.request;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * One condition of {@code match} or {@code exempt}. {@code <source>=<values>} holds where the request's value
 * is one of the values, separated by {@code |} ({@code *}: where it has a value at all);
 * {@code <source>!=<values>} holds exactly where that does not. Sources: {@code header:<name>},
 * {@code query:<name>}, {@code jwt:<claim>}, {@code principal} (compared with the first value, exactly),
 * {@code method} (the HTTP method), {@code ip} (the client address, in addresses or CIDR ranges) and
 * {@code role} (the caller in one of the roles).
 */
final class Condition {

    /** What a text that is no condition at all is told. */
    static final String HELP = " is not a condition; use <source>=<value> or <source>!=<value> with a source "
            + "header:<name>, query:<name>, jwt:<claim>, principal, method, ip or role, | between values and * for any value";

    private static final List<String> METHODS = List.of("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE",
            "CONNECT");

    /** Where the condition looks: a {@link Source}'s value, or one of the sources only conditions have. */
    private enum Kind { VALUE, METHOD, IP, ROLE }

    private final Kind kind;
    private final Source source;
    private final boolean negated;
    private final List<String> values;
    private final List<AddressRange> ranges;

    private Condition(Kind kind, Source source, boolean negated, List<String> values, List<AddressRange> ranges) {
        this.kind = kind;
        this.source = source;
        this.negated = negated;
        this.values = values;
        this.ranges = ranges;
    }

    /**
     * @param text comma-separated conditions
     * @return them, in order
     * @throws IllegalArgumentException naming the first condition that is malformed, and why
     */
    static List<Condition> parseList(String text) {
        List<Condition> conditions = new ArrayList<>();
        for (String raw : text.split(",", -1)) {
            conditions.add(parse(raw.trim()));
        }
        return Collections.unmodifiableList(conditions);
    }

    private static Condition parse(String condition) {
        if (condition.startsWith("!")) {
            throw refused(condition, "negate with != after the source (header:X-Internal!=* holds where that header is absent)");
        }
        int eq = condition.indexOf('=');
        if (eq <= 0) {
            throw new IllegalArgumentException("'" + condition + "'" + HELP);
        }
        boolean negated = condition.charAt(eq - 1) == '!';
        String sourceText = condition.substring(0, negated ? eq - 1 : eq).trim();
        String valueText = condition.substring(eq + 1).trim();
        Kind kind = switch (sourceText.toLowerCase(Locale.ROOT)) {
            case "method" -> Kind.METHOD;
            case "ip" -> Kind.IP;
            case "role" -> Kind.ROLE;
            default -> Kind.VALUE;
        };
        Source source = null;
        if (kind == Kind.VALUE) {
            source = Source.parse(sourceText, Source.Kind.HEADER, Source.Kind.QUERY, Source.Kind.JWT, Source.Kind.PRINCIPAL);
            if (source == null || valueText.isEmpty()) {
                throw new IllegalArgumentException("'" + condition + "'" + HELP);
            }
        }
        if (valueText.startsWith("=") || valueText.startsWith("!")) {
            throw refused(condition, "ambiguous; write <source>=<value> or <source>!=<value>, with no second operator");
        }
        List<String> values = values(condition, kind, valueText);
        List<AddressRange> ranges = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            String value = values.get(i);
            if (kind == Kind.METHOD) {
                values.set(i, method(condition, value));
            } else if (kind == Kind.IP) {
                try {
                    ranges.add(AddressRange.parse(value));
                } catch (IllegalArgumentException e) {
                    throw refused(condition, e.getMessage());
                }
            }
        }
        return new Condition(kind, source, negated, List.copyOf(values), List.copyOf(ranges));
    }

    /** @return the values of the condition, split at {@code |}; empty for {@code *} */
    private static List<String> values(String condition, Kind kind, String valueText) {
        if (valueText.isEmpty()) {
            throw refused(condition, switch (kind) {
                case METHOD -> "name one or more HTTP methods, e.g. method=POST|PUT";
                case IP -> "give one or more addresses or CIDR ranges, e.g. ip=10.0.0.0/8|fd00::/8";
                default -> "name one or more roles, e.g. role=admin";
            });
        }
        if (valueText.equals("*")) {
            if (kind != Kind.VALUE) {
                throw refused(condition, switch (kind) {
                    case METHOD -> "every request has a method; name the methods, e.g. method=POST|PUT";
                    case IP -> "every request has a client address; give addresses or CIDR ranges";
                    default -> "name the roles; principal=* holds for any authenticated caller";
                });
            }
            return new ArrayList<>();
        }
        List<String> values = new ArrayList<>();
        for (String raw : valueText.split("\\|", -1)) {
            String value = raw.trim();
            if (value.isEmpty()) {
                throw refused(condition, "an empty value between | (give each value, or * alone for any value)");
            }
            if (value.equals("*")) {
                throw refused(condition, "* stands alone: it is any value");
            }
            values.add(value);
        }
        return values;
    }

    private static String method(String condition, String value) {
        String method = value.toUpperCase(Locale.ROOT);
        if (!METHODS.contains(method)) {
            throw refused(condition, "'" + value + "' is not an HTTP method; use " + String.join(", ", METHODS));
        }
        return method;
    }

    private static IllegalArgumentException refused(String condition, String reason) {
        return new IllegalArgumentException("'" + condition + "': " + reason);
    }

    /** @return whether this condition holds for {@code request} (an HTTP request) */
    boolean holds(IncomingRequest request) {
        return matchesValues(request) != negated;
    }

    private boolean matchesValues(IncomingRequest request) {
        RequestView view = request.view();
        switch (kind) {
            case METHOD:
                return values.contains(view.method());
            case IP:
                return AddressRange.anyContains(ranges, request.clientAddress());
            case ROLE:
                for (String role : values) {
                    if (view.isUserInRole(role)) {
                        return true;
                    }
                }
                return false;
            default:
                String actual = source.value(view);
                return actual != null && (values.isEmpty() || values.contains(actual));
        }
    }
}
