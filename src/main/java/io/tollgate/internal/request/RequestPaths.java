package io.tollgate.internal.request;

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
        return canonical(java.util.Arrays.asList(decodedPath.split("/")));
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
