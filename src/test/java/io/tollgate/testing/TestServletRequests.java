package io.tollgate.testing;

import jakarta.enterprise.context.RequestScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;

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
        return new Filter() {
            @Override
            public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
                    throws IOException, ServletException {
                CURRENT.set((HttpServletRequest) request);
                try {
                    chain.doFilter(request, response);
                } finally {
                    CURRENT.remove();
                }
            }
        };
    }
}
