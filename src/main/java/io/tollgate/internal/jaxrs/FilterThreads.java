package io.tollgate.internal.jaxrs;

import jakarta.ws.rs.container.ContainerRequestContext;

/**
 * Where the filter's decision runs when the store may block (Hazelcast: a network round trip). On the servers of
 * Jakarta EE the request's own thread may block, so the decision runs there ({@link #CALLER}). A runtime that serves
 * requests on threads that must never block (Quarkus REST's event loop, for a reactive resource method) gives a bean
 * of this type that suspends the request and decides on a worker thread.
 */
public interface FilterThreads {

    /** Runs the decision on the request's own thread. */
    FilterThreads CALLER = (context, decision) -> decision.run();

    /**
     * Runs {@code decision}, which may block and may abort the request ({@link ContainerRequestContext#abortWith}),
     * before the request goes on.
     */
    void run(ContainerRequestContext context, Runnable decision);
}
