package io.tollgate.quarkus.runtime;

import io.quarkus.arc.Arc;
import io.quarkus.arc.InstanceHandle;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.tollgate.internal.request.HttpRequests;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.RoutingContext;

/**
 * The HTTP request Quarkus (Vert.x) serves, for what JAX-RS does not give: the client's TCP address. Tollgate knows of
 * requests through Quarkus REST only; what it knows of one is kept in the CDI request context, which Quarkus REST has
 * active for each request.
 */
final class VertxHttpRequests implements HttpRequests {

    private volatile CurrentVertxRequest current;

    @Override
    public String remoteAddress() {
        RoutingContext context = routingContext();
        if (context == null) {
            return null;
        }
        SocketAddress address = context.request().remoteAddress();
        return address == null ? null : address.hostAddress();
    }

    private RoutingContext routingContext() {
        if (!Arc.container().requestContext().isActive()) {
            return null;
        }
        CurrentVertxRequest found = current;
        if (found == null) {
            InstanceHandle<CurrentVertxRequest> handle = Arc.container().instance(CurrentVertxRequest.class);
            if (!handle.isAvailable()) {
                return null;
            }
            found = handle.get();
            current = found;
        }
        return found.getCurrent();
    }
}
