package io.tollgate.internal.request;

import java.util.List;

/** The parts of an HTTP request rules may read; implemented over JAX-RS, faked in tests. */
public interface RequestView {

    /** @return every value of the header (case-insensitive name), in order; empty if absent */
    List<String> headers(String name);

    /** @return every value of the query parameter, decoded; empty if absent */
    List<String> queryParameters(String name);

    /** @return the authenticated principal's name, or {@code null} */
    String principal();

    /** @return the verified JWT claim as text, or {@code null} if there is no such claim or token */
    String claim(String name);

    /** @return the request path relative to the JAX-RS application, with a leading {@code '/'} */
    String path();

    /** @return the address of the TCP peer, as a literal IP address */
    String remoteAddress();

    /** @return the HTTP method, as sent ({@code GET}, {@code POST}) */
    String method();

    /** @return whether the authenticated caller is in {@code role}, as the server's security answers it */
    boolean isUserInRole(String role);

    /** @return the first value of the header, or {@code null} */
    default String header(String name) {
        List<String> values = headers(name);
        return values.isEmpty() ? null : values.get(0);
    }

    /** @return the first value of the query parameter, or {@code null} */
    default String queryParameter(String name) {
        List<String> values = queryParameters(name);
        return values.isEmpty() ? null : values.get(0);
    }
}
