package io.tollgate.testing;

import io.smallrye.jwt.auth.principal.JWTParser;
import io.smallrye.jwt.auth.principal.ParseException;
import jakarta.annotation.Priority;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.ws.rs.NotAuthorizedException;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.ext.Provider;
import java.security.Principal;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * The server's authentication, as a test stand-in: a bearer token is verified by SmallRye JWT and
 * becomes a {@link JsonWebToken} principal (what MicroProfile JWT does in Payara and Liberty); a
 * {@code X-Test-User} header becomes a plain principal (what container authentication does), in the roles
 * its comma-separated {@code X-Test-Roles} header names (what the server's role mapping does).
 */
@Provider
@PreMatching
@Priority(Priorities.AUTHENTICATION)
public class TestAuthFilter implements ContainerRequestFilter {

    private volatile JWTParser parser;

    @Override
    public void filter(ContainerRequestContext context) {
        String authorization = context.getHeaderString("Authorization");
        Principal principal;
        List<String> roles = new ArrayList<>();
        if (authorization != null && authorization.startsWith("Bearer ")) {
            try {
                if (parser == null) {
                    parser = CDI.current().select(JWTParser.class).get();
                }
                principal = parser.parse(authorization.substring(7));
            } catch (ParseException e) {
                throw new NotAuthorizedException("Bearer");
            }
        } else if (context.getHeaderString("X-Test-User") != null) {
            String name = context.getHeaderString("X-Test-User");
            principal = () -> name;
            String named = context.getHeaderString("X-Test-Roles");
            for (String role : named == null ? new String[0] : named.split(",")) {
                roles.add(role.trim());
            }
        } else {
            return;
        }
        SecurityContext original = context.getSecurityContext();
        context.setSecurityContext(new SecurityContext() {
            @Override
            public Principal getUserPrincipal() {
                return principal;
            }

            @Override
            public boolean isUserInRole(String role) {
                return roles.contains(role);
            }

            @Override
            public boolean isSecure() {
                return original.isSecure();
            }

            @Override
            public String getAuthenticationScheme() {
                return principal instanceof JsonWebToken ? "MP-JWT" : "BASIC";
            }
        });
    }
}
