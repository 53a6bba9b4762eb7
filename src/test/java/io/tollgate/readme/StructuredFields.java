package io.tollgate.readme;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Lists of RFC 8941 structured fields, the syntax of {@code RateLimit} and {@code RateLimit-Policy}:
 * items (string, token, integer, decimal, boolean, byte sequence) with parameters, separated by commas.
 * Strict: anything else is an error naming the position.
 */
public final class StructuredFields {

    /** One list member: its bare item as written (strings with their quotes) and its parameters, in order. */
    public record Item(String value, Map<String, String> parameters) {
    }

    private final String text;
    private int pos;

    private StructuredFields(String text) {
        this.text = text;
    }

    /** @throws IllegalArgumentException if {@code field} is not a structured-field list */
    public static List<Item> parseList(String field) {
        return new StructuredFields(field).list();
    }

    private List<Item> list() {
        List<Item> items = new ArrayList<>();
        skip(' ');
        while (pos < text.length()) {
            items.add(item());
            skipWhitespace();
            if (pos == text.length()) {
                break;
            }
            expect(',');
            skipWhitespace();
            if (pos == text.length()) {
                throw error("a list may not end with a comma");
            }
        }
        return items;
    }

    private Item item() {
        String value = bareItem();
        Map<String, String> parameters = new LinkedHashMap<>();
        while (pos < text.length() && text.charAt(pos) == ';') {
            pos++;
            skip(' ');
            String key = key();
            String parameter = "?1";
            if (pos < text.length() && text.charAt(pos) == '=') {
                pos++;
                parameter = bareItem();
            }
            parameters.put(key, parameter);
        }
        return new Item(value, parameters);
    }

    private String key() {
        int start = pos;
        if (pos >= text.length() || !(Character.isLowerCase(text.charAt(pos)) || text.charAt(pos) == '*')) {
            throw error("a parameter key starts with a lowercase letter or '*'");
        }
        while (pos < text.length() && "abcdefghijklmnopqrstuvwxyz0123456789_-.*".indexOf(text.charAt(pos)) >= 0) {
            pos++;
        }
        return text.substring(start, pos);
    }

    private String bareItem() {
        if (pos >= text.length()) {
            throw error("an item is missing");
        }
        char c = text.charAt(pos);
        int start = pos;
        if (c == '"') {
            for (pos++; pos < text.length() && text.charAt(pos) != '"'; pos++) {
                char s = text.charAt(pos);
                if (s == '\\') {
                    pos++;
                    if (pos >= text.length() || (text.charAt(pos) != '"' && text.charAt(pos) != '\\')) {
                        throw error("only \\\" and \\\\ may be escaped in a string");
                    }
                } else if (s < 0x20 || s > 0x7e) {
                    throw error("a string holds visible ASCII only");
                }
            }
            expect('"');
        } else if (c == '-' || Character.isDigit(c)) {
            pos++;
            while (pos < text.length() && (Character.isDigit(text.charAt(pos)) || text.charAt(pos) == '.')) {
                pos++;
            }
            String number = text.substring(start, pos);
            if (!number.matches("-?\\d{1,15}|-?\\d{1,12}\\.\\d{1,3}")) {
                throw error("'" + number + "' is not an integer or decimal");
            }
        } else if (c == '?') {
            pos++;
            if (pos >= text.length() || (text.charAt(pos) != '0' && text.charAt(pos) != '1')) {
                throw error("a boolean is ?0 or ?1");
            }
            pos++;
        } else if (c == ':') {
            int end = text.indexOf(':', pos + 1);
            if (end < 0 || !text.substring(pos + 1, end).matches("[A-Za-z0-9+/=]*")) {
                throw error("a byte sequence is :base64:");
            }
            pos = end + 1;
        } else if (Character.isLetter(c) || c == '*') {
            while (pos < text.length() && (Character.isLetterOrDigit(text.charAt(pos))
                    || "!#$%&'*+-.^_`|~:/".indexOf(text.charAt(pos)) >= 0)) {
                pos++;
            }
        } else {
            throw error("'" + c + "' cannot start an item");
        }
        return text.substring(start, pos);
    }

    private void expect(char c) {
        if (pos >= text.length() || text.charAt(pos) != c) {
            throw error("expected '" + c + "'");
        }
        pos++;
    }

    private void skip(char c) {
        while (pos < text.length() && text.charAt(pos) == c) {
            pos++;
        }
    }

    private void skipWhitespace() {
        while (pos < text.length() && (text.charAt(pos) == ' ' || text.charAt(pos) == '\t')) {
            pos++;
        }
    }

    private IllegalArgumentException error(String reason) {
        return new IllegalArgumentException("'" + text + "' is not a structured-field list at position " + pos + ": " + reason);
    }
}
