package io.tollgate.internal.request;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The canonical form of a request path, the one path rules and {@code key=path} use: the path as the
 * JAX-RS runtime routes it. Built from the path's segments as the runtime decoded them, each without its
 * matrix parameters; empty segments (a trailing slash, {@code //}) are dropped, so {@code /items/42;n=1},
 * {@code /items/42/} and {@code /%69tems/42} are all {@code /items/42}. A slash that was sent encoded
 * ({@code %2F}) stays inside its segment, written {@code %2F} (and a percent sign {@code %25}), so a segment
 * never turns into two.
 */
public final class RequestPaths {

    private RequestPaths() {
    }

    /**
     * @param decodedSegments the path's segments, percent-decoded, without matrix parameters
     * @return the canonical path, starting with {@code '/'}; {@code "/"} for none
     */
    public static String canonical(Iterable<String> decodedSegments) {
        StringBuilder path = new StringBuilder(64);
        for (String segment : decodedSegments) {
            if (segment == null || segment.isEmpty()) {
                continue;
            }
            path.append('/');
            appendEscaped(path, segment);
        }
        return path.length() == 0 ? "/" : path.toString();
    }

    /**
     * @param decodedPath a decoded path whose slashes all separate segments, without path parameters, as a
     *                    Servlet 6 container gives it ({@code getServletPath() + getPathInfo()}); {@code null}
     *                    is the root
     * @return the canonical path
     */
    public static String canonical(String decodedPath) {
        if (decodedPath == null) {
            return "/";
        }
        return canonical(Arrays.asList(decodedPath.split("/")));
    }

    /**
     * @param rawPath a path as sent, percent-encoded, relative to the application
     * @return whether it has an encoded slash ({@code %2F}): a runtime that splits the decoded path into segments
     *         (Quarkus REST) would see one segment as two where it routes it as one
     */
    public static boolean hasEncodedSlash(String rawPath) {
        return rawPath.contains("%2F") || rawPath.contains("%2f");
    }

    /**
     * @param rawPath a path as sent, percent-encoded, relative to the application
     * @return its segments, each without its matrix parameters and then decoded; {@code .} and {@code ..} resolved
     */
    public static List<String> decodedSegments(String rawPath) {
        List<String> segments = new ArrayList<>();
        for (String raw : rawPath.split("/")) {
            int matrix = raw.indexOf(';');
            String segment = URLDecoder.decode((matrix < 0 ? raw : raw.substring(0, matrix)).replace("+", "%2B"),
                    StandardCharsets.UTF_8);
            if (segment.equals("..")) {
                if (!segments.isEmpty()) {
                    segments.remove(segments.size() - 1);
                }
            } else if (!segment.isEmpty() && !segment.equals(".")) {
                segments.add(segment);
            }
        }
        return segments;
    }

    private static void appendEscaped(StringBuilder path, String segment) {
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (c == '%') {
                path.append("%25");
            } else if (c == '/') {
                path.append("%2F");
            } else {
                path.append(c);
            }
        }
    }
}
