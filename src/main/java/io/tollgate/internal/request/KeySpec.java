package io.tollgate.internal.request;

import io.tollgate.RateLimitKeyResolver;
import io.tollgate.RateLimitKeys;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * A rule's bucket key: one part, or several joined into a composite key ({@link RateLimitKeys#composite}: escaped,
 * joined by {@code ,}, the form operators name it by in overrides and the admin). Parts: {@code ip},
 * {@code principal}, {@code header:<name>}, {@code query:<name>}, {@code jwt:<claim>},
 * {@code path}, {@code global}, {@code resolver:<class>}. A part the request does not have
 * (no such header, no request at all) contributes the empty string, so such callers share one
 * bucket rather than escape the limit, unless the rule's {@code on-missing-key} says otherwise
 * ({@link #missingPart}). Only the parts read from a source can be missing: every request has a
 * client address and a path, and {@code global} and resolvers always give a key.
 */
public final class KeySpec {

    private final List<Part> parts;
    private final String text;

    private KeySpec(List<Part> parts, String text) {
        this.parts = parts;
        this.text = text;
    }

    /**
     * @param text e.g. {@code ip} or {@code header:X-Api-Key, path}
     * @return the key specification
     * @throws IllegalArgumentException with the reason, if a part is not one of the known ones
     */
    public static KeySpec parse(String text) {
        List<Part> parts = new ArrayList<>();
        for (String raw : text.split(",", -1)) {
            String part = raw.trim();
            String lower = part.toLowerCase(Locale.ROOT);
            if (lower.equals("ip")) {
                parts.add(new Part(Kind.IP, null, null));
            } else if (lower.equals("path")) {
                parts.add(new Part(Kind.PATH, null, null));
            } else if (lower.equals("global")) {
                parts.add(new Part(Kind.GLOBAL, null, null));
            } else if (lower.startsWith("resolver:") && isClassName(part.substring(9).trim())) {
                parts.add(new Part(Kind.RESOLVER, null, part.substring(9).trim()));
            } else {
                Source source = Source.parse(part, Source.Kind.HEADER, Source.Kind.QUERY, Source.Kind.JWT, Source.Kind.PRINCIPAL);
                if (source == null) {
                    throw new IllegalArgumentException("'" + part + "' is not a key; use ip, principal, header:<name>, "
                            + "query:<name>, jwt:<claim>, path, global or resolver:<class>, comma-separated for a composite key");
                }
                parts.add(new Part(Kind.SOURCE, source, null));
            }
        }
        return new KeySpec(Collections.unmodifiableList(parts), text.trim());
    }

    private static boolean isClassName(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (String segment : name.split("\\.", -1)) {
            if (segment.isEmpty() || !Character.isJavaIdentifierStart(segment.charAt(0))) {
                return false;
            }
            for (int i = 1; i < segment.length(); i++) {
                if (!Character.isJavaIdentifierPart(segment.charAt(i))) {
                    return false;
                }
            }
        }
        return true;
    }

    /** @return the classes named by {@code resolver:} parts */
    public List<String> resolverClasses() {
        List<String> names = new ArrayList<>();
        for (Part part : parts) {
            if (part.kind == Kind.RESOLVER) {
                names.add(part.resolverClass);
            }
        }
        return names;
    }

    /** @return whether the key reads the request at all (otherwise it is fixed, or from code) */
    public boolean readsRequest() {
        for (Part part : parts) {
            if (part.kind != Kind.GLOBAL && part.kind != Kind.RESOLVER) {
                return true;
            }
        }
        return false;
    }

    /**
     * @param rule      the rule's name, for resolvers
     * @param request   the HTTP request, or {@code null} outside one
     * @param method    the method being limited, or {@code null}
     * @param arguments its arguments (empty if unknown)
     * @param resolvers finds the resolver bean of a class name
     * @return the key: a single part's value as it is, several as {@link RateLimitKeys#composite} joins them
     */
    public String resolve(String rule, IncomingRequest request, Method method, Object[] arguments,
            Function<String, RateLimitKeyResolver> resolvers) {
        if (parts.size() == 1) {
            return parts.get(0).value(rule, request, method, arguments, resolvers);
        }
        String[] values = new String[parts.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = parts.get(i).value(rule, request, method, arguments, resolvers);
        }
        return RateLimitKeys.composite(values);
    }

    /**
     * @param request the HTTP request, or {@code null} outside one
     * @return the first {@code header:}, {@code query:}, {@code jwt:} or {@code principal} part the request
     *         does not have (e.g. {@code header:x-api-key}), or {@code null} if it has them all
     */
    public String missingPart(IncomingRequest request) {
        for (Part part : parts) {
            if (part.kind == Kind.SOURCE && (request == null || part.source.value(request.view()) == null)) {
                return part.source.toString();
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return text;
    }

    private enum Kind { IP, PATH, GLOBAL, RESOLVER, SOURCE }

    private static final class Part {
        final Kind kind;
        final Source source;
        final String resolverClass;

        Part(Kind kind, Source source, String resolverClass) {
            this.kind = kind;
            this.source = source;
            this.resolverClass = resolverClass;
        }

        String value(String rule, IncomingRequest request, Method method, Object[] arguments,
                Function<String, RateLimitKeyResolver> resolvers) {
            String value;
            switch (kind) {
                case GLOBAL:
                    return "";
                case RESOLVER:
                    value = resolvers.apply(resolverClass).resolve(rule, method, arguments);
                    break;
                case IP:
                    value = request == null ? null : request.clientKey();
                    break;
                case PATH:
                    value = request == null ? null : request.view().path();
                    break;
                default:
                    value = request == null ? null : source.value(request.view());
                    break;
            }
            return value == null ? "" : value;
        }
    }
}
