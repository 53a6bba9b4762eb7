package io.tollgate.internal.cdi;

import io.tollgate.internal.runtime.RequestRecord;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.BeforeDestroyed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/**
 * Settles, as each request ends, the {@code charge-on} and {@code refund-on} checks that no JAX-RS response filter
 * settled: a resource that threw an exception no mapper takes, which the server answers past JAX-RS (a 500). Told
 * by the CDI request context, on every server, with or without the Servlet API.
 */
@ApplicationScoped
public class RequestEnd {

    @Inject
    RunningTollgate extension;

    void ending(@Observes @BeforeDestroyed(RequestScoped.class) Object request) {
        if (!extension.settlesByOutcome()) {
            return;
        }
        RequestRecord record = extension.tollgate().requests().existing();
        if (record != null) {
            extension.tollgate().settleUnanswered(record);
        }
    }
}
