package io.tollgate.internal.servlet;

import io.tollgate.internal.request.HttpRequests;
import io.tollgate.internal.request.RequestView;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Set;

/**
 * The HTTP request being served, through CDI's built-in {@code HttpServletRequest} bean (Jakarta EE servers
 * provide it; it stands for the request of the current thread). Outside a servlet request the bean has none
 * to give, and neither has this.
 */
public final class ServletHttpRequests implements HttpRequests {

    private final HttpServletRequest current;
    /** Whether the server's HTTP layer was taught the reason phrase of 429 (on the first request seen). */
    private volatile boolean taught;

    private ServletHttpRequests(HttpServletRequest current) {
        this.current = current;
    }

    /** @return the requests of this application, or {@code null} if the container offers no such bean */
    public static HttpRequests create(BeanManager beans) {
        Set<Bean<?>> candidates = beans.getBeans(HttpServletRequest.class);
        if (candidates.isEmpty()) {
            return null;
        }
        Bean<?> bean = beans.resolve(candidates);
        return new ServletHttpRequests((HttpServletRequest) beans.getReference(bean, HttpServletRequest.class,
                beans.createCreationalContext(bean)));
    }

    @Override
    public void beforeTooManyRequests() {
        if (!taught) {
            try {
                ReasonPhrases.teach429(current.getServletContext());
                taught = true;
            } catch (RuntimeException e) {
                // no servlet request on this thread: next time
            }
        }
    }

    @Override
    public boolean hasAttributes() {
        return true;
    }

    @Override
    public RequestView current() {
        return remoteAddress() == null ? null : new ServletRequestView(current);
    }

    @Override
    public Object attribute(String name) {
        try {
            return current.getAttribute(name);
        } catch (RuntimeException e) {
            return null; // no servlet request on this thread
        }
    }

    @Override
    public void setAttribute(String name, Object value) {
        try {
            current.setAttribute(name, value);
        } catch (RuntimeException e) {
            // no servlet request on this thread
        }
    }

    @Override
    public String remoteAddress() {
        String address;
        try {
            address = current.getRemoteAddr();
        } catch (RuntimeException e) {
            return null; // no servlet request on this thread
        }
        return address;
    }
}
