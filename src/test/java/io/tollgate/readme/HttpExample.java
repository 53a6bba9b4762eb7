package io.tollgate.readme;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.stream.JsonParsingException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An HTTP response as a README shows it ({@code http} block: status line, header lines, a blank line, a
 * JSON body), and how a real response is compared with it: the same status code; every header the
 * example shows, with the same value (the rate-limit headers parsed as structured-field lists, RFC 8941:
 * the same items with the same parameters, in the same order; {@code Content-Type} by media type); no
 * rate-limit header or {@code Retry-After} the example leaves out; and a JSON body with exactly the
 * example's fields and values. The reason phrase is reported, not compared (clients never see it).
 */
public final class HttpExample {

    private static final Pattern STATUS_LINE = Pattern.compile("HTTP/1\\.[01] (\\d{3})(?: (.*))?");
    private static final Pattern HEADER_LINE = Pattern.compile("([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \\t]*(.*?)[ \\t]*");
    private static final Set<String> STRUCTURED = Set.of("ratelimit", "ratelimit-policy");

    private final int status;
    private final String reason;
    private final Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    private final String body;

    private HttpExample(int status, String reason, String body) {
        this.status = status;
        this.reason = reason;
        this.body = body;
    }

    /**
     * @throws IllegalArgumentException if the text is not a status line, header lines and an optional
     *         body, or a header's value or the body does not have the syntax its kind requires
     */
    public static HttpExample parse(String text) {
        String[] lines = text.split("\r?\n", -1);
        Matcher statusLine = STATUS_LINE.matcher(lines[0]);
        if (!statusLine.matches()) {
            throw new IllegalArgumentException("not an HTTP status line: '" + lines[0] + "'");
        }
        int i = 1;
        List<String[]> headerLines = new ArrayList<>();
        for (; i < lines.length && !lines[i].isEmpty(); i++) {
            Matcher header = HEADER_LINE.matcher(lines[i]);
            if (!header.matches()) {
                throw new IllegalArgumentException("not a header line: '" + lines[i] + "'");
            }
            headerLines.add(new String[] {header.group(1), header.group(2)});
        }
        StringBuilder body = new StringBuilder();
        for (i++; i < lines.length; i++) {
            body.append(lines[i]).append('\n');
        }
        HttpExample example = new HttpExample(Integer.parseInt(statusLine.group(1)),
                statusLine.group(2) == null ? "" : statusLine.group(2), body.toString().strip());
        for (String[] header : headerLines) {
            if (example.headers.put(header[0], header[1]) != null) {
                throw new IllegalArgumentException("header " + header[0] + " shown twice");
            }
            example.checkSyntax(header[0], header[1]);
        }
        if (!example.body.isEmpty()) {
            example.json(example.body, "the example's body");
            String type = example.headers.get("Content-Type");
            if (type == null || !mediaType(type).endsWith("json")) {
                throw new IllegalArgumentException("a JSON body without a JSON Content-Type: " + type);
            }
            JsonObject json = example.json(example.body, "the example's body");
            if (json.containsKey("status") && json.getInt("status") != example.status) {
                throw new IllegalArgumentException("the body's status " + json.get("status") + " is not the status line's "
                        + example.status);
            }
        }
        return example;
    }

    public int status() {
        return status;
    }

    public String reason() {
        return reason;
    }

    /** @return the headers shown, by name (case-insensitive) */
    public Map<String, String> headers() {
        return headers;
    }

    public String body() {
        return body;
    }

    /**
     * @param headers every header of the response, by name (case-insensitive), each with its values
     * @return every way the response differs from this example, empty when it matches
     */
    public List<String> differences(int actualStatus, Map<String, List<String>> actualHeaders, String actualBody) {
        List<String> differences = new ArrayList<>();
        if (actualStatus != status) {
            differences.add("status: README " + status + ", server " + actualStatus);
        }
        Map<String, List<String>> actual = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        actual.putAll(actualHeaders);
        headers.forEach((name, shown) -> {
            List<String> values = actual.get(name);
            if (values == null || values.isEmpty()) {
                differences.add(name + ": README '" + shown + "', server sends none");
            } else if (values.size() > 1) {
                differences.add(name + ": server sends it " + values.size() + " times: " + values);
            } else if (!sameValue(name, shown, values.get(0))) {
                differences.add(name + ": README '" + shown + "', server '" + values.get(0) + "'");
            }
        });
        actual.forEach((name, values) -> {
            String lower = name.toLowerCase(Locale.ROOT);
            if ((lower.startsWith("ratelimit") || lower.startsWith("x-ratelimit") || lower.equals("retry-after"))
                    && !headers.containsKey(name)) {
                differences.add(name + ": server sends " + values + ", README shows none");
            }
        });
        if (!body.isEmpty()) {
            differences.addAll(bodyDifferences(actualBody));
        }
        return differences;
    }

    private List<String> bodyDifferences(String actualBody) {
        List<String> differences = new ArrayList<>();
        JsonObject shown = json(body, "the README's body");
        JsonObject actual;
        try {
            actual = json(actualBody, "the server's body");
        } catch (IllegalArgumentException e) {
            return List.of("body: " + e.getMessage());
        }
        for (String field : shown.keySet()) {
            if (!actual.containsKey(field)) {
                differences.add("body field " + field + ": README " + shown.get(field) + ", server sends none");
            } else if (!shown.get(field).equals(actual.get(field))) {
                differences.add("body field " + field + ": README " + shown.get(field) + ", server " + actual.get(field));
            }
        }
        for (String field : actual.keySet()) {
            if (!shown.containsKey(field)) {
                differences.add("body field " + field + ": server sends " + actual.get(field) + ", README shows none");
            }
        }
        return differences;
    }

    private static boolean sameValue(String name, String shown, String actual) {
        String lower = name.toLowerCase(Locale.ROOT);
        if (STRUCTURED.contains(lower)) {
            try {
                return StructuredFields.parseList(shown).equals(StructuredFields.parseList(actual));
            } catch (IllegalArgumentException e) {
                return false;
            }
        }
        if (lower.equals("content-type")) {
            return mediaType(shown).equals(mediaType(actual));
        }
        return shown.equals(actual);
    }

    private void checkSyntax(String name, String value) {
        String lower = name.toLowerCase(Locale.ROOT);
        if (STRUCTURED.contains(lower)) {
            StructuredFields.parseList(value);
        } else if (lower.equals("retry-after") && !value.matches("\\d+")) {
            throw new IllegalArgumentException("Retry-After '" + value + "' is not whole seconds");
        }
    }

    private static String mediaType(String contentType) {
        return contentType.split(";")[0].trim().toLowerCase(Locale.ROOT);
    }

    private JsonObject json(String text, String what) {
        try (JsonReader reader = Json.createReader(new StringReader(text))) {
            return reader.readObject();
        } catch (JsonParsingException | IllegalStateException e) {
            throw new IllegalArgumentException(what + " is not a JSON object: " + e.getMessage() + "\n" + text);
        }
    }

    /** For messages: the example as parsed. */
    @Override
    public String toString() {
        Map<String, String> shown = new LinkedHashMap<>(headers);
        return status + " " + reason + " " + shown + " " + body;
    }
}
