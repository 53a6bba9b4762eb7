package io.tollgate.simulator.engine;

import io.tollgate.internal.request.RequestView;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A request as the rules see it: what a modelled client sends, or what an access-log line recorded.
 * Header names are case-insensitive, as in HTTP.
 */
public final class SimRequest implements RequestView {

    private final String remoteAddress;
    private final String path;
    private final String principal;
    private final String method;
    private final Map<String, List<String>> headers;
    private final Map<String, List<String>> query;
    private final Map<String, String> claims;

    private SimRequest(Builder b) {
        this.remoteAddress = b.remoteAddress;
        this.path = b.path;
        this.principal = b.principal;
        this.method = b.method;
        this.headers = b.headers;
        this.query = b.query;
        this.claims = b.claims;
    }

    public static Builder builder(String remoteAddress, String path) {
        return new Builder(remoteAddress, path);
    }

    @Override
    public List<String> headers(String name) {
        return headers.getOrDefault(name.toLowerCase(Locale.ROOT), List.of());
    }

    @Override
    public List<String> queryParameters(String name) {
        return query.getOrDefault(name, List.of());
    }

    @Override
    public String principal() {
        return principal;
    }

    @Override
    public String claim(String name) {
        return claims.get(name);
    }

    @Override
    public String path() {
        return path;
    }

    @Override
    public String remoteAddress() {
        return remoteAddress;
    }

    @Override
    public String method() {
        return method;
    }

    /** A modelled or logged request carries no roles: a {@code role} condition never holds. */
    @Override
    public boolean isUserInRole(String role) {
        return false;
    }

    /** Builds a {@link SimRequest}. */
    public static final class Builder {
        private final String remoteAddress;
        private final String path;
        private String principal;
        private String method = "GET";
        private final Map<String, List<String>> headers = new TreeMap<>();
        private final Map<String, List<String>> query = new TreeMap<>();
        private final Map<String, String> claims = new TreeMap<>();

        private Builder(String remoteAddress, String path) {
            this.remoteAddress = remoteAddress;
            this.path = path.startsWith("/") ? path : "/" + path;
        }

        public Builder principal(String name) {
            this.principal = name;
            return this;
        }

        public Builder method(String method) {
            this.method = method;
            return this;
        }

        public Builder header(String name, String value) {
            headers.computeIfAbsent(name.toLowerCase(Locale.ROOT), k -> new java.util.ArrayList<>()).add(value);
            return this;
        }

        public Builder query(String name, String value) {
            query.computeIfAbsent(name, k -> new java.util.ArrayList<>()).add(value);
            return this;
        }

        public Builder claim(String name, String value) {
            claims.put(name, value);
            return this;
        }

        public SimRequest build() {
            return new SimRequest(this);
        }
    }
}
