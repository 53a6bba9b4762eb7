package io.tollgate.simulator.replay;

import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * An access-log format: the fields of a line, in order, as the server's log pattern names them.
 * Understands the NCSA directives ({@code %h %a %l %u %t %{t}W "%r" %s %>s %b %B %m %U %q %H
 * %{Name}i}, others are read and ignored) and Payara's ({@code %client.name% %auth-user-name%
 * %datetime% %request% %status% %response.length% %header.Name%}). Fields are separated by spaces;
 * a field in double quotes or square brackets may hold spaces.
 */
public final class LogFormat {

    /** NCSA common log format, as Apache httpd and most servers write it. */
    public static final String COMMON = "%h %l %u %t \"%r\" %>s %b";
    /** NCSA combined: common plus the referrer and the user agent. */
    public static final String COMBINED = COMMON + " \"%{Referer}i\" \"%{User-Agent}i\"";
    /** Open Liberty's {@code httpAccessLogging} default {@code logFormat}. */
    public static final String LIBERTY = "%h %u %{t}W \"%r\" %s %b";
    /** Payara's default access log format (Payara Server and Payara Micro). */
    public static final String PAYARA = "%client.name% %auth-user-name% %datetime% %request% %status% %response.length%";

    /** The formats {@code --format} names, in the order {@code auto} tries them. */
    public static final Map<String, String> NAMED = named();

    private static final DateTimeFormatter NCSA_TIME = new DateTimeFormatterBuilder().appendPattern("dd/MMM/yyyy:HH:mm:ss")
            .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, true).optionalEnd()
            .appendPattern(" xx").toFormatter(Locale.ENGLISH);

    enum Kind { HOST, IDENT, USER, TIME, REQUEST, STATUS, BYTES, METHOD, PATH, QUERY, PROTOCOL, HEADER, OTHER }

    /** One field: what it holds, and how the server wraps it: {@code '"'}, {@code '['}, {@code ' '} (bare) or {@code '*'} (either). */
    private record Field(Kind kind, String header, char wrap) {

        Field(Kind kind, String header) {
            this(kind, header, ' ');
        }

        Field wrapped(char wrap) {
            return new Field(kind, header, wrap);
        }
    }

    private final String name;
    private final String pattern;
    private final List<Field> fields;

    private LogFormat(String name, String pattern, List<Field> fields) {
        this.name = name;
        this.pattern = pattern;
        this.fields = fields;
    }

    private static Map<String, String> named() {
        Map<String, String> named = new LinkedHashMap<>();
        named.put("liberty", LIBERTY);
        named.put("payara", PAYARA);
        named.put("combined", COMBINED);
        named.put("common", COMMON);
        return java.util.Collections.unmodifiableMap(named);
    }

    /** @return the format named {@code liberty}, {@code payara}, {@code common} or {@code combined} */
    public static Optional<LogFormat> named(String name) {
        String pattern = NAMED.get(name.toLowerCase(Locale.ROOT));
        return pattern == null ? Optional.empty() : Optional.of(pattern(name.toLowerCase(Locale.ROOT), pattern));
    }

    /**
     * @param pattern e.g. {@code %h %u %{t}W "%r" %s %b %{X-Api-Key}i}
     * @throws IllegalArgumentException if it names no time or no request
     */
    public static LogFormat pattern(String name, String pattern) {
        List<Field> fields = new ArrayList<>();
        for (String raw : pattern.trim().split("\\s+")) {
            String spec = raw;
            char wrap = ' ';
            if (spec.length() >= 2 && (spec.startsWith("\"") && spec.endsWith("\"") || spec.startsWith("[") && spec.endsWith("]"))) {
                wrap = spec.charAt(0);
                spec = spec.substring(1, spec.length() - 1);
            }
            Field field = field(spec);
            if (spec.length() > 2 && spec.startsWith("%") && spec.endsWith("%")) {
                wrap = field.kind == Kind.STATUS || field.kind == Kind.BYTES ? ' ' : '"'; // Payara quotes what it writes as text
            } else if (field.kind == Kind.TIME) {
                wrap = '['; // %t and %{t}W write their own brackets
            } else if (field.kind == Kind.OTHER) {
                wrap = '*';
            }
            fields.add(field.wrapped(wrap));
        }
        boolean time = fields.stream().anyMatch(f -> f.kind == Kind.TIME);
        boolean target = fields.stream().anyMatch(f -> f.kind == Kind.REQUEST || f.kind == Kind.PATH);
        if (!time || !target) {
            throw new IllegalArgumentException("a log format needs the time (%t, %{t}W or %datetime%) and the request "
                    + "(%r, %U or %request%): '" + pattern + "'");
        }
        return new LogFormat(name, pattern, List.copyOf(fields));
    }

    private static Field field(String spec) {
        if (spec.length() > 2 && spec.startsWith("%") && spec.endsWith("%")) { // Payara
            String token = spec.substring(1, spec.length() - 1);
            switch (token) {
                case "client.name":
                case "client.dns":
                    return new Field(Kind.HOST, null);
                case "auth-user-name":
                    return new Field(Kind.USER, null);
                case "datetime":
                    return new Field(Kind.TIME, null);
                case "request":
                    return new Field(Kind.REQUEST, null);
                case "status":
                    return new Field(Kind.STATUS, null);
                case "response.length":
                    return new Field(Kind.BYTES, null);
                case "http.method":
                    return new Field(Kind.METHOD, null);
                case "http.uri":
                    return new Field(Kind.PATH, null);
                case "query-str":
                    return new Field(Kind.QUERY, null);
                case "referer":
                    return new Field(Kind.HEADER, "Referer");
                case "user.agent":
                    return new Field(Kind.HEADER, "User-Agent");
                default:
                    return token.startsWith("header.") ? new Field(Kind.HEADER, token.substring(7)) : new Field(Kind.OTHER, null);
            }
        }
        String s = spec.replace(">", "").replace("<", "");
        if (s.startsWith("%{") && s.indexOf('}') > 2) {
            String arg = s.substring(2, s.indexOf('}'));
            String directive = s.substring(s.indexOf('}') + 1);
            if (directive.equals("i")) {
                return new Field(Kind.HEADER, arg);
            }
            if (directive.equals("W") && arg.equals("t") || directive.equals("t")) {
                return new Field(Kind.TIME, null);
            }
            return new Field(Kind.OTHER, null);
        }
        switch (s) {
            case "%h":
            case "%a":
                return new Field(Kind.HOST, null);
            case "%l":
                return new Field(Kind.IDENT, null);
            case "%u":
                return new Field(Kind.USER, null);
            case "%t":
                return new Field(Kind.TIME, null);
            case "%r":
                return new Field(Kind.REQUEST, null);
            case "%s":
                return new Field(Kind.STATUS, null);
            case "%b":
            case "%B":
                return new Field(Kind.BYTES, null);
            case "%m":
                return new Field(Kind.METHOD, null);
            case "%U":
                return new Field(Kind.PATH, null);
            case "%q":
                return new Field(Kind.QUERY, null);
            case "%H":
                return new Field(Kind.PROTOCOL, null);
            default:
                return new Field(Kind.OTHER, null);
        }
    }

    public String name() {
        return name;
    }

    public String pattern() {
        return pattern;
    }

    /**
     * @return the record of {@code text}
     * @throws IllegalArgumentException saying what does not fit the format
     */
    public LogRecord parse(int line, String text) {
        List<String> values = new ArrayList<>();
        List<Character> wraps = new ArrayList<>();
        split(text, values, wraps);
        if (values.size() != fields.size()) {
            throw new IllegalArgumentException("expected " + fields.size() + " fields (" + pattern + "), found " + values.size());
        }
        for (int i = 0; i < fields.size(); i++) {
            char wrap = fields.get(i).wrap;
            if (wrap != '*' && wrap != wraps.get(i)) {
                throw new IllegalArgumentException("field " + (i + 1) + " ('" + values.get(i) + "') should be "
                        + (wrap == '"' ? "in double quotes" : wrap == '[' ? "in [brackets]" : "bare, without quotes or brackets"));
            }
        }
        String host = null;
        String user = null;
        long time = -1;
        long resolution = 1_000_000;
        String method = "GET";
        String path = null;
        String query = "";
        int status = 0;
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 0; i < fields.size(); i++) {
            Field field = fields.get(i);
            String value = values.get(i);
            switch (field.kind) {
                case HOST:
                    host = value;
                    break;
                case USER:
                    user = value.equals("-") || value.equals("NULL-AUTH-USER") || value.isEmpty() ? null : value;
                    break;
                case TIME: {
                    try {
                        OffsetDateTime at = OffsetDateTime.parse(value, NCSA_TIME);
                        time = at.toEpochSecond() * 1_000_000L + at.getNano() / 1_000;
                        resolution = value.indexOf('.') > 0 ? precision(value) : 1_000_000;
                    } catch (DateTimeParseException e) {
                        throw new IllegalArgumentException("time '" + value + "' is not dd/MMM/yyyy:HH:mm:ss[.SSS] +hhmm");
                    }
                    break;
                }
                case REQUEST: {
                    String[] parts = value.split(" ");
                    if (parts.length < 2 || parts.length > 3 || !parts[0].matches("[A-Z]+") || !parts[1].startsWith("/")) {
                        throw new IllegalArgumentException("request '" + value + "' is not <METHOD> <path> [<protocol>]");
                    }
                    method = parts[0];
                    int q = parts[1].indexOf('?');
                    path = q < 0 ? parts[1] : parts[1].substring(0, q);
                    query = q < 0 ? "" : parts[1].substring(q + 1);
                    break;
                }
                case METHOD:
                    method = value;
                    break;
                case PATH:
                    path = value;
                    break;
                case QUERY:
                    query = value.startsWith("?") ? value.substring(1) : value.equals("-") ? "" : value;
                    break;
                case STATUS:
                    if (!value.matches("[1-5]\\d\\d")) {
                        throw new IllegalArgumentException("status '" + value + "' is not an HTTP status");
                    }
                    status = Integer.parseInt(value);
                    break;
                case HEADER:
                    if (!value.equals("-") && !value.isEmpty()) {
                        headers.put(field.header, value);
                    }
                    break;
                default:
                    break;
            }
        }
        if (host == null || host.isEmpty() || host.equals("-")) {
            host = "";
        }
        if (path == null || !path.startsWith("/")) {
            throw new IllegalArgumentException("no request path");
        }
        return new LogRecord(line, time, resolution, host, user, method, path + (query.isEmpty() ? "" : "?" + query), status, headers);
    }

    private static long precision(String value) {
        int dot = value.indexOf('.');
        int digits = 0;
        for (int i = dot + 1; i < value.length() && Character.isDigit(value.charAt(i)); i++) {
            digits++;
        }
        long micros = 1_000_000;
        for (int i = 0; i < digits && micros > 1; i++) {
            micros /= 10;
        }
        return micros;
    }

    /** Splits a line into fields: bare words, "quoted" (with \" inside) or [bracketed]; {@code wraps} gets each one's wrapping. */
    static void split(String text, List<String> values, List<Character> wraps) {
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (c == ' ' || c == '\t') {
                i++;
                continue;
            }
            StringBuilder value = new StringBuilder();
            wraps.add(c == '"' || c == '[' ? c : ' ');
            if (c == '"') {
                i++;
                boolean closed = false;
                while (i < n) {
                    char d = text.charAt(i);
                    if (d == '\\' && i + 1 < n) {
                        value.append(text.charAt(i + 1));
                        i += 2;
                    } else if (d == '"') {
                        i++;
                        closed = true;
                        break;
                    } else {
                        value.append(d);
                        i++;
                    }
                }
                if (!closed) {
                    throw new IllegalArgumentException("a quoted field is not closed");
                }
            } else if (c == '[') {
                int close = text.indexOf(']', i);
                if (close < 0) {
                    throw new IllegalArgumentException("a [bracketed] field is not closed");
                }
                value.append(text, i + 1, close);
                i = close + 1;
            } else {
                while (i < n && text.charAt(i) != ' ' && text.charAt(i) != '\t') {
                    value.append(text.charAt(i++));
                }
            }
            values.add(value.toString());
        }
    }

    @Override
    public String toString() {
        return name + " (" + pattern + ")";
    }
}
