package io.tollgate.internal.request;

import java.util.List;
import java.util.Locale;

/**
 * Where a value comes from: {@code header:<name>}, {@code query:<name>}, {@code jwt:<claim>} or
 * {@code principal}. Used by keys, costs and match conditions.
 */
public final class Source {

    enum Kind { HEADER, QUERY, JWT, PRINCIPAL }

    private final Kind kind;
    private final String name;

    private Source(Kind kind, String name) {
        this.kind = kind;
        this.name = name;
    }

    /**
     * @param text    the source, e.g. {@code header:X-Api-Key}
     * @param allowed which kinds the caller accepts
     * @return the source, or {@code null} if {@code text} is not one
     */
    static Source parse(String text, Kind... allowed) {
        int colon = text.indexOf(':');
        String prefix = (colon < 0 ? text : text.substring(0, colon)).trim().toLowerCase(Locale.ROOT);
        String name = colon < 0 ? "" : text.substring(colon + 1).trim();
        Kind kind;
        switch (prefix) {
            case "header":
                kind = Kind.HEADER;
                break;
            case "query":
                kind = Kind.QUERY;
                break;
            case "jwt":
                kind = Kind.JWT;
                break;
            case "principal":
                kind = Kind.PRINCIPAL;
                break;
            default:
                return null;
        }
        if (!List.of(allowed).contains(kind) || (kind == Kind.PRINCIPAL) != name.isEmpty() || !isToken(name)) {
            return null;
        }
        return new Source(kind, kind == Kind.HEADER ? name.toLowerCase(Locale.ROOT) : name);
    }

    private static boolean isToken(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c <= ' ' || c >= 127 || c == ',' || c == '=' || c == ':' || c == '"') {
                return false;
            }
        }
        return true;
    }

    Kind kind() {
        return kind;
    }

    /** @return every value this source has in the request (a principal or claim has at most one) */
    List<String> values(RequestView request) {
        switch (kind) {
            case HEADER:
                return request.headers(name);
            case QUERY:
                return request.queryParameters(name);
            case JWT:
                return single(request.claim(name));
            default:
                return single(request.principal());
        }
    }

    /** @return the first value, or {@code null} */
    String value(RequestView request) {
        switch (kind) {
            case HEADER:
                return request.header(name);
            case QUERY:
                return request.queryParameter(name);
            case JWT:
                return request.claim(name);
            default:
                return request.principal();
        }
    }

    private static List<String> single(String value) {
        return value == null ? List.of() : List.of(value);
    }

    @Override
    public String toString() {
        return kind == Kind.PRINCIPAL ? "principal" : kind.name().toLowerCase(Locale.ROOT) + ":" + name;
    }
}
