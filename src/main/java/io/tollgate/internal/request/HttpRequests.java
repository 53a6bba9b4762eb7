package io.tollgate.internal.request;

/**
 * Where the HTTP request being served on this thread comes from when JAX-RS did not hand it over: the
 * Servlet API, where the application can see it (a plain servlet calling a limited service, a JSF page).
 */
public interface HttpRequests {

    /** Knows of no request: every call is outside one. */
    HttpRequests NONE = new HttpRequests() {
        @Override
        public RequestView current() {
            return null;
        }

        @Override
        public String remoteAddress() {
            return null;
        }

        @Override
        public Object attribute(String name) {
            return null;
        }

        @Override
        public void setAttribute(String name, Object value) {
        }

        @Override
        public boolean hasAttributes() {
            return false;
        }
    };

    /** @return the request being served on this thread, or {@code null} outside an HTTP request */
    RequestView current();

    /** @return the TCP peer of the request being served on this thread, or {@code null} outside one */
    String remoteAddress();

    /** @return the attribute {@code name} of the request being served on this thread, or {@code null} */
    Object attribute(String name);

    /** Sets the attribute {@code name} of the request being served on this thread, if there is one. */
    void setAttribute(String name, Object value);

    /**
     * @return whether the request's attributes are where Tollgate keeps what it knows of the request (the Servlet API's,
     *         which are also the JAX-RS request's properties); where not, the CDI request context keeps it
     */
    default boolean hasAttributes() {
        return true;
    }

    /** Called before a 429 is sent for the request being served: the server may need to learn its reason phrase. */
    default void beforeTooManyRequests() {
    }
}
