package io.tollgate.internal.servlet;

import io.tollgate.internal.runtime.RequestRecord;
import io.tollgate.internal.runtime.Tollgate;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Settles {@code charge-on} and {@code refund-on} where no JAX-RS response filter runs: a resource that throws an
 * exception no mapper takes is answered by the servlet container (500), past JAX-RS. After the chain, a request
 * whose record still holds checks to settle is settled with the response's status, or 500 if the chain threw; an
 * asynchronous request when it completes. Costs a request attribute look-up for every other request.
 */
public final class OutcomeFilter implements Filter {

    private volatile Tollgate tollgate;

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain) throws IOException, ServletException {
        try {
            chain.doFilter(request, response);
        } catch (IOException | ServletException | RuntimeException | Error e) {
            settle(request, HttpServletResponse.SC_INTERNAL_SERVER_ERROR);
            throw e;
        }
        if (request.isAsyncStarted()) {
            request.getAsyncContext().addListener(new Completion(request, response));
        } else {
            settle(request, status(response));
        }
    }

    private static int status(ServletResponse response) {
        return response instanceof HttpServletResponse http ? http.getStatus() : HttpServletResponse.SC_OK;
    }

    private void settle(ServletRequest request, int status) {
        if (request.getAttribute(RequestRecord.ATTRIBUTE) instanceof RequestRecord record) {
            tollgate().settle(record, status);
        }
    }

    private Tollgate tollgate() {
        Tollgate found = tollgate;
        if (found == null) {
            found = CDI.current().select(Tollgate.class).get();
            tollgate = found;
        }
        return found;
    }

    /** Settles an asynchronous request when it completes, times out or fails. */
    private final class Completion implements AsyncListener {
        private final ServletRequest request;
        private final ServletResponse response;

        Completion(ServletRequest request, ServletResponse response) {
            this.request = request;
            this.response = response;
        }

        @Override
        public void onComplete(AsyncEvent event) {
            settle(request, status(response));
        }

        @Override
        public void onTimeout(AsyncEvent event) {
            settle(request, HttpServletResponse.SC_SERVICE_UNAVAILABLE);
        }

        @Override
        public void onError(AsyncEvent event) {
            settle(request, HttpServletResponse.SC_INTERNAL_SERVER_ERROR);
        }

        @Override
        public void onStartAsync(AsyncEvent event) {
            event.getAsyncContext().addListener(this);
        }
    }
}
