package io.tollgate.internal.jaxrs;

import io.tollgate.internal.jwt.JwtClaims;
import io.tollgate.internal.request.RequestPaths;
import io.tollgate.internal.request.RequestView;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.PathSegment;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;
import java.security.Principal;
import java.util.ArrayList;
import java.util.List;

/** A {@link RequestView} over a JAX-RS request. */
final class JaxrsRequestView implements RequestView {

    private final ContainerRequestContext context;
    private final PeerAddress peerAddress;
    private String path;
    private String remoteAddress;

    JaxrsRequestView(ContainerRequestContext context, PeerAddress peerAddress) {
        this.context = context;
        this.peerAddress = peerAddress;
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
        return JwtClaims.AVAILABLE ? JwtClaims.claim(principalOrNull(), name) : null;
    }

    private Principal principalOrNull() {
        SecurityContext security = context.getSecurityContext();
        return security == null ? null : security.getUserPrincipal();
    }

    @Override
    public String method() {
        return context.getMethod();
    }

    @Override
    public boolean isUserInRole(String role) {
        SecurityContext security = context.getSecurityContext();
        return security != null && security.isUserInRole(role);
    }

    /**
     * The path as the runtime routed it: its decoded segments without matrix parameters. Where the path has an
     * encoded slash, the segments are read from the path as sent: Quarkus REST decodes the path before it splits it
     * into segments (but routes {@code a%2Fb} as one).
     */
    @Override
    public String path() {
        if (path == null) {
            UriInfo uri = context.getUriInfo();
            String raw = uri.getRequestUri().getRawPath();
            String base = raw != null && RequestPaths.hasEncodedSlash(raw) ? uri.getBaseUri().getRawPath() : null;
            if (base != null && raw.startsWith(base)) {
                path = RequestPaths.canonical(RequestPaths.decodedSegments(raw.substring(base.length())));
                return path;
            }
            List<PathSegment> segments = uri.getPathSegments(true);
            List<String> decoded = new ArrayList<>(segments.size());
            for (PathSegment segment : segments) {
                decoded.add(segment.getPath());
            }
            path = RequestPaths.canonical(decoded);
        }
        return path;
    }

    @Override
    public String remoteAddress() {
        if (remoteAddress == null) {
            remoteAddress = peerAddress.of(context);
        }
        return remoteAddress;
    }
}
