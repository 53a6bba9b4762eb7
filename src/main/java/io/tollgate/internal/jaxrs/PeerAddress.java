package io.tollgate.internal.jaxrs;

import io.tollgate.internal.request.HttpRequests;
import jakarta.ws.rs.container.ContainerRequestContext;
import java.lang.reflect.Method;
import java.util.logging.Logger;

/**
 * The TCP peer of a JAX-RS request. JAX-RS has no API for it: it comes from the Servlet API where the
 * application sees it, else from the JAX-RS runtime's own request (RESTEasy's {@code getHttpRequest()
 * .getRemoteAddress()}, as on Open Liberty without the {@code servlet-6.0} feature), read by reflection
 * because the application cannot see the runtime's classes.
 */
final class PeerAddress {

    private static final Logger LOG = Logger.getLogger(PeerAddress.class.getName());

    private final HttpRequests servlet;
    /** The runtime's accessors, found on the first request that needs them. */
    private volatile Accessors runtime;
    private volatile boolean warned;

    PeerAddress(HttpRequests servlet) {
        this.servlet = servlet;
    }

    /** @return the peer's address, or the empty string if it cannot be read (then every client shares one key) */
    String of(ContainerRequestContext context) {
        String address = servlet.remoteAddress();
        if (address != null) {
            return address;
        }
        address = fromRuntime(context);
        return address != null ? address : "";
    }

    private String fromRuntime(ContainerRequestContext context) {
        Accessors accessors = runtime;
        if (accessors == null || accessors.type != context.getClass()) {
            accessors = Accessors.find(context.getClass());
            runtime = accessors;
        }
        try {
            Object request = accessors.request.invoke(context);
            Object address = request == null ? null : accessors.address.invoke(request);
            return address == null ? null : address.toString();
        } catch (ReflectiveOperationException | RuntimeException e) {
            if (!warned) {
                warned = true;
                LOG.warning("Tollgate cannot read the client's address here (" + e + "): rules keyed by ip see every "
                        + "client as one; give the application the Servlet API (Open Liberty: feature servlet-6.0)");
            }
            return null;
        }
    }

    private static final class Accessors {
        final Class<?> type;
        final Method request;
        final Method address;

        private Accessors(Class<?> type, Method request, Method address) {
            this.type = type;
            this.request = request;
            this.address = address;
        }

        static Accessors find(Class<?> type) {
            try {
                Method request = type.getMethod("getHttpRequest");
                Method address = request.getReturnType().getMethod("getRemoteAddress");
                return new Accessors(type, request, address);
            } catch (NoSuchMethodException | RuntimeException e) {
                return new Accessors(type, null, null);
            }
        }
    }
}
