package io.tollgate.internal.servlet;

import io.tollgate.internal.jwt.JwtClaims;
import io.tollgate.internal.request.RequestPaths;
import io.tollgate.internal.request.RequestView;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link RequestView} over a servlet request: what a service called from a servlet (or a JSF page) sees of
 * the request, read the way the JAX-RS view reads it. Query parameters come from the query string alone (the
 * body of a form post is never read), and the path is the one within the web application.
 */
final class ServletRequestView implements RequestView {

    private final HttpServletRequest request;
    private Map<String, List<String>> query;

    ServletRequestView(HttpServletRequest request) {
        this.request = request;
    }

    @Override
    public List<String> headers(String name) {
        Enumeration<String> values = request.getHeaders(name);
        if (values == null || !values.hasMoreElements()) {
            return List.of();
        }
        return Collections.list(values);
    }

    @Override
    public List<String> queryParameters(String name) {
        if (query == null) {
            query = parse(request.getQueryString());
        }
        return query.getOrDefault(name, List.of());
    }

    /** {@code a=1&b=x%20y&a=2}, decoded as forms are ({@code +} is a space); a malformed escape is kept as sent. */
    static Map<String, List<String>> parse(String queryString) {
        if (queryString == null || queryString.isEmpty()) {
            return Map.of();
        }
        Map<String, List<String>> parameters = new HashMap<>();
        for (String pair : queryString.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
            parameters.computeIfAbsent(name, n -> new ArrayList<>(1)).add(value);
        }
        return parameters;
    }

    private static String decode(String text) {
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return text;
        }
    }

    @Override
    public String principal() {
        Principal principal = request.getUserPrincipal();
        return principal == null ? null : principal.getName();
    }

    @Override
    public String claim(String name) {
        return JwtClaims.AVAILABLE ? JwtClaims.claim(request.getUserPrincipal(), name) : null;
    }

    @Override
    public String method() {
        return request.getMethod();
    }

    @Override
    public boolean isUserInRole(String role) {
        return request.isUserInRole(role);
    }

    @Override
    public String path() {
        String servletPath = request.getServletPath();
        String pathInfo = request.getPathInfo();
        return RequestPaths.canonical(pathInfo == null ? servletPath : servletPath + pathInfo);
    }

    @Override
    public String remoteAddress() {
        return request.getRemoteAddr();
    }
}
