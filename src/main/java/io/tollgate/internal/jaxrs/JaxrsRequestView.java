package io.tollgate.internal.jaxrs;

import io.tollgate.internal.request.RequestView;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.SecurityContext;
import java.security.Principal;
import java.util.List;

/** A {@link RequestView} over a JAX-RS request. */
final class JaxrsRequestView implements RequestView {

    private final ContainerRequestContext context;
    private final String remoteAddress;

    JaxrsRequestView(ContainerRequestContext context, String remoteAddress) {
        this.context = context;
        this.remoteAddress = remoteAddress;
    }

    @Override
    public List<String> headers(String name) {
        List<String> values = context.getHeaders().get(name);
        return values == null ? List.of() : values;
    }

    @Override
    public List<String> queryParameters(String name) {
        List<String> values = context.getUriInfo().getQueryParameters().get(name);
        return values == null ? List.of() : values;
    }

    @Override
    public String principal() {
        Principal principal = principalOrNull();
        return principal == null ? null : principal.getName();
    }

    @Override
    public String claim(String name) {
        Principal principal = principalOrNull();
        return principal == null || !JwtClaims.AVAILABLE ? null : JwtClaims.claim(principal, name);
    }

    private Principal principalOrNull() {
        SecurityContext security = context.getSecurityContext();
        return security == null ? null : security.getUserPrincipal();
    }

    @Override
    public String path() {
        String path = context.getUriInfo().getPath();
        return path.startsWith("/") ? path : "/" + path;
    }

    @Override
    public String remoteAddress() {
        return remoteAddress;
    }
}
