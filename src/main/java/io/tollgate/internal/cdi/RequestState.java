package io.tollgate.internal.cdi;

import io.tollgate.internal.runtime.RequestRecord;
import jakarta.enterprise.context.RequestScoped;

/**
 * Where the JAX-RS filter hands its {@link RequestRecord} to interceptors when the application cannot see the
 * Servlet API (Open Liberty without {@code servlet-6.0}): the CDI request context. Elsewhere the record travels
 * as a request attribute and this bean is never made.
 */
@RequestScoped
public class RequestState {

    private RequestRecord record;

    public void begin(RequestRecord record) {
        this.record = record;
    }

    /** @return the record the filter handed over, or {@code null} */
    public RequestRecord record() {
        return record;
    }
}
