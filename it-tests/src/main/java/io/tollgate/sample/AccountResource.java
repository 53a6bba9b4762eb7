package io.tollgate.sample;

import io.tollgate.RateLimited;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;
import java.security.Principal;

/**
 * {@code GET /api/account}: limited by the rule {@code accounts}, a bucket per JWT subject ({@code key=jwt:sub}) where
 * the server verified the caller's token (MicroProfile JWT; on Quarkus, SmallRye JWT).
 */
@Path("account")
@RequestScoped
public class AccountResource {

    @GET
    @Produces(MediaType.TEXT_PLAIN)
    @RateLimited("accounts")
    public String account(@Context SecurityContext security) {
        Principal caller = security.getUserPrincipal();
        return "account of " + (caller == null ? "nobody" : caller.getName());
    }
}
