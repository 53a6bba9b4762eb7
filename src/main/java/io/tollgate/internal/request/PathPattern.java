package io.tollgate.internal.request;

import java.util.regex.Pattern;

/**
 * A path glob matched against the request path relative to the JAX-RS application:
 * {@code *} matches within one segment, a {@code /**} segment matches any number of segments
 * (none included). {@code /api/search/*} matches {@code /api/search/books} but not
 * {@code /api/search}; {@code /api/**} matches {@code /api} and everything below it.
 */
public final class PathPattern {

    private final String glob;
    private final Pattern regex;

    private PathPattern(String glob, Pattern regex) {
        this.glob = glob;
        this.regex = regex;
    }

    /** @throws IllegalArgumentException if the pattern does not start with {@code '/'} or misuses {@code **} */
    public static PathPattern parse(String glob) {
        String trimmed = glob.trim();
        if (!trimmed.startsWith("/")) {
            throw new IllegalArgumentException("'" + trimmed + "' must start with '/'");
        }
        StringBuilder regex = new StringBuilder();
        String body = trimmed.length() > 1 && trimmed.endsWith("/") ? trimmed.substring(0, trimmed.length() - 1) : trimmed;
        String[] segments = body.substring(1).split("/", -1);
        for (int i = 0; i < segments.length; i++) {
            String segment = segments[i];
            if (segment.equals("**")) {
                regex.append("(?:/.*)?");
                continue;
            }
            if (segment.contains("**")) {
                throw new IllegalArgumentException("'" + trimmed + "': ** must be a whole segment");
            }
            regex.append('/');
            int start = 0;
            for (int star = segment.indexOf('*'); star >= 0; star = segment.indexOf('*', start)) {
                regex.append(Pattern.quote(segment.substring(start, star))).append("[^/]*");
                start = star + 1;
            }
            if (start < segment.length()) {
                regex.append(Pattern.quote(segment.substring(start)));
            }
        }
        return new PathPattern(trimmed, Pattern.compile(regex.length() == 0 ? "/" : regex.toString()));
    }

    /** @param path a request path with a leading {@code '/'}; one trailing slash is ignored */
    public boolean matches(String path) {
        String normalized = path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        return regex.matcher(normalized.isEmpty() ? "/" : normalized).matches();
    }

    @Override
    public String toString() {
        return glob;
    }
}
