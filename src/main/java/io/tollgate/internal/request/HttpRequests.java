package io.tollgate.internal.request;

/**
 * Where the HTTP request being served on this thread comes from when JAX-RS did not hand it over: the
 * Servlet API, where the application can see it (a plain servlet calling a limited service, a JSF page). A runtime
 * that gives only the client's address (Quarkus's Vert.x) implements {@link #remoteAddress} alone: it knows no request
 * and has no attributes, and what Tollgate knows of a request is kept in the CDI request context.
 */
public interface HttpRequests {

    /** Knows of no request: every call is outside one. */
    HttpRequests NONE = () -> null;

    /** @return the TCP peer of the request being served on this thread, or {@code null} outside one */
    String remoteAddress();

    /** @return the request being served on this thread, or {@code null} outside an HTTP request (or not known) */
    default RequestView current() {
        return null;
    }

    /** @return the attribute {@code name} of the request being served on this thread, or {@code null} */
    default Object attribute(String name) {
        return null;
    }

    /** Sets the attribute {@code name} of the request being served on this thread, if there is one. */
    default void setAttribute(String name, Object value) {
    }

    /**
     * @return whether the request's attributes are where Tollgate keeps what it knows of the request (the Servlet API's,
     *         which are also the JAX-RS request's properties); where not, the CDI request context keeps it
     */
    default boolean hasAttributes() {
        return false;
    }

    /** Called before a 429 is sent for the request being served: the server may need to learn its reason phrase. */
    default void beforeTooManyRequests() {
    }
}
