package io.tollgate.quarkus.runtime;

import io.quarkus.arc.Arc;
import io.quarkus.arc.InjectableContext;
import io.quarkus.arc.ManagedContext;
import io.tollgate.internal.jaxrs.FilterThreads;
import jakarta.inject.Singleton;
import jakarta.ws.rs.container.ContainerRequestContext;
import org.jboss.resteasy.reactive.server.spi.ResteasyReactiveContainerRequestContext;

/**
 * Keeps the store's round trip off Vert.x's event loop: a reactive resource method's filters run on it, and an event
 * loop must never block. There the request is suspended, decided on a worker thread (with the request's CDI context
 * active) and resumed; on a worker thread (a blocking resource method) the decision runs where it is.
 */
@Singleton
public class VertxFilterThreads implements FilterThreads {

    @Override
    public void run(ContainerRequestContext context, Runnable decision) {
        if (!io.vertx.core.Context.isOnEventLoopThread()
                || !(context instanceof ResteasyReactiveContainerRequestContext suspendable)) {
            decision.run();
            return;
        }
        ManagedContext requests = Arc.container().requestContext();
        InjectableContext.ContextState state = requests.getStateIfActive();
        suspendable.suspend();
        Arc.container().getExecutorService().execute(() -> {
            if (state != null) {
                requests.activate(state);
            }
            try {
                decision.run();
                suspendable.resume();
            } catch (RuntimeException | Error e) {
                suspendable.resume(e);
            } finally {
                if (state != null) {
                    requests.deactivate();
                }
            }
        });
    }
}
