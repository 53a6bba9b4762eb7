package io.tollgate.testing;

import io.tollgate.internal.request.IncomingRequest;
import io.tollgate.internal.request.RequestView;
import io.tollgate.internal.request.TrustedProxies;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The one request view of the unit tests: a request with just the parts a test gives it, a {@code GET}
 * from {@value #DEFAULT_PEER} on path {@code /} unless told otherwise. Header names are case-insensitive,
 * as in HTTP; query parameter names are not.
 */
public final class FakeRequest implements RequestView {

    /** The TCP peer of a request that names none. */
    public static final String DEFAULT_PEER = "198.51.100.7";

    private final Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    private final Map<String, List<String>> query = new LinkedHashMap<>();
    private final Map<String, String> claims = new LinkedHashMap<>();
    private String principal;
    private String path = "/";
    private String remoteAddress = DEFAULT_PEER;
    private String method = "GET";
    private final Set<String> roles = new HashSet<>();
    private int remoteAddressReads;

    /** @return a request without headers, query, principal or claims */
    public static FakeRequest request() {
        return new FakeRequest();
    }

    /** Adds {@code values} to the header's values, after those given before. */
    public FakeRequest header(String name, String... values) {
        headers.computeIfAbsent(name, n -> new ArrayList<>()).addAll(List.of(values));
        return this;
    }

    /** Adds {@code values} to the query parameter's values, after those given before. */
    public FakeRequest query(String name, String... values) {
        query.computeIfAbsent(name, n -> new ArrayList<>()).addAll(List.of(values));
        return this;
    }

    /** Sets the verified JWT claim {@code name}. */
    public FakeRequest claim(String name, String value) {
        claims.put(name, value);
        return this;
    }

    public FakeRequest principal(String name) {
        principal = name;
        return this;
    }

    public FakeRequest path(String path) {
        this.path = path;
        return this;
    }

    /** Sets the TCP peer. */
    public FakeRequest from(String remoteAddress) {
        this.remoteAddress = remoteAddress;
        return this;
    }

    /** Sets the HTTP method. */
    public FakeRequest method(String method) {
        this.method = method;
        return this;
    }

    /** Puts the caller in {@code roles}, besides those given before. */
    public FakeRequest roles(String... roles) {
        this.roles.addAll(List.of(roles));
        return this;
    }

    /** @return this request as rules see it, trusting {@code proxies} */
    public IncomingRequest incoming(TrustedProxies proxies) {
        return new IncomingRequest(this, proxies);
    }

    /** @return this request as rules see it, with no trusted proxies */
    public IncomingRequest incoming() {
        return new IncomingRequest(this, TrustedProxies.NONE);
    }

    /** @return how often the peer's address was read */
    public int remoteAddressReads() {
        return remoteAddressReads;
    }

    @Override
    public List<String> headers(String name) {
        return headers.getOrDefault(name, List.of());
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
    public String method() {
        return method;
    }

    @Override
    public boolean isUserInRole(String role) {
        return roles.contains(role);
    }

    @Override
    public String remoteAddress() {
        remoteAddressReads++;
        return remoteAddress;
    }
}
