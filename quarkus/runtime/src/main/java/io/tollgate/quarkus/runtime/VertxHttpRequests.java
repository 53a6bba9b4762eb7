package io.tollgate.quarkus.runtime;

import io.quarkus.arc.Arc;
import io.quarkus.arc.InstanceHandle;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.tollgate.internal.request.HttpRequests;
import io.tollgate.internal.request.RequestView;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.RoutingContext;

/**
 * The HTTP request Quarkus (Vert.x) serves, for what JAX-RS does not give: the client's TCP address. What Tollgate
 * knows of a request is kept in the CDI request context, which Quarkus REST has active for each request.
 */
final class VertxHttpRequests implements HttpRequests {

    private volatile CurrentVertxRequest current;

    @Override
    public RequestView current() {
        return null; // Tollgate knows of requests through Quarkus REST only
    }

    @Override
    public String remoteAddress() {
        RoutingContext context = routingContext();
        if (context == null) {
            return null;
        }
        SocketAddress address = context.request().remoteAddress();
        return address == null ? null : address.hostAddress();
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
