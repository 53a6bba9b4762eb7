package io.tollgate.internal.jaxrs;

import io.tollgate.internal.runtime.Tollgate;
import jakarta.annotation.Priority;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.Provider;

/**
 * Makes {@link RateLimitAdminResource} absent while it is off ({@code tollgate.admin.enabled=false}): every method
 * on its paths answers 404 as a path that does not exist, before the runtime could answer {@code OPTIONS},
 * {@code HEAD} or 405 itself and so reveal it. Before matching, so that no resource method is chosen.
 */
@Provider
@PreMatching
@Priority(Priorities.AUTHENTICATION)
public class AdminAbsenceFilter implements ContainerRequestFilter {

    /** Whether the admin resource is on, read once per application: it changes only with a deployment. */
    private volatile Boolean enabled;

    @Override
    public void filter(ContainerRequestContext request) {
        if (!enabled() && isAdminPath(request.getUriInfo())) {
            throw new NotFoundException();
        }
    }

    /**
     * Decodes the path only if its raw form could be an admin path: most requests' cannot. The raw form is the request
     * URI's ({@code getPath(false)} is not in every runtime: Quarkus REST refuses it).
     */
    private static boolean isAdminPath(UriInfo uri) {
        String raw = uri.getRequestUri().getRawPath();
        return (raw.contains("admin") || raw.indexOf('%') >= 0) && isAdminPath(uri.getPath());
    }

    private boolean enabled() {
        Boolean on = enabled;
        if (on == null) {
            Tollgate tollgate = CDI.current().select(Tollgate.class).get();
            on = tollgate.enabled() && tollgate.config().admin().enabled();
            enabled = on;
        }
        return on;
    }

    /**
     * @return whether {@code path} (relative to the application's path, decoded) is {@code tollgate/admin} or under
     *         it, as a runtime would match it: empty segments and matrix parameters left out
     */
    static boolean isAdminPath(String path) {
        int segment = 0;
        for (String part : path.split("/")) {
            int matrix = part.indexOf(';');
            String name = matrix < 0 ? part : part.substring(0, matrix);
            if (name.isEmpty()) {
                continue;
            }
            if (!name.equals(segment == 0 ? "tollgate" : "admin")) {
                return false;
            }
            if (++segment == 2) {
                return true;
            }
        }
        return false;
    }
}
