package io.tollgate.testing;

import jakarta.enterprise.context.RequestScoped;
import jakarta.enterprise.context.control.RequestContextController;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.enterprise.inject.Produces;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServletRequest;

/**
 * What a Jakarta EE server's CDI container gives every application and Weld SE does not: a bean of type
 * {@code HttpServletRequest} standing for the request being served. A servlet filter of the test application
 * hands each request over on its thread; outside a request the bean has none, as on a server.
 */
public class TestServletRequests {

    private static final ThreadLocal<HttpServletRequest> CURRENT = new ThreadLocal<>();

    @Produces
    @RequestScoped
    HttpServletRequest current() {
        HttpServletRequest request = CURRENT.get();
        if (request == null) {
            throw new IllegalStateException("no servlet request is being served on this thread");
        }
        return request;
    }

    /** The filter that makes each request known, for the whole web application. */
    static Filter filter() {
        return (request, response, chain) -> {
            CURRENT.set((HttpServletRequest) request);
            try {
                chain.doFilter(request, response);
            } finally {
                CURRENT.remove();
            }
        };
    }

    /**
     * For the plain servlets: the request context active while they serve a request, as a server's CDI container
     * keeps it for every servlet (Jersey activates its own for JAX-RS requests).
     */
    static Filter requestContext() {
        return (request, response, chain) -> {
            RequestContextController context = CDI.current().select(RequestContextController.class).get();
            boolean activated = context.activate();
            try {
                chain.doFilter(request, response);
            } finally {
                if (activated) {
                    context.deactivate();
                }
            }
        };
    }
}
