package io.tollgate.sample;

import io.tollgate.RateLimited;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** {@code POST /api/sessions}: limited by the rule {@code logins}, which bans a client that keeps trying after its 429s. */
@Path("sessions")
@RequestScoped
public class SessionsResource {

    @POST
    @Produces(MediaType.TEXT_PLAIN)
    @RateLimited("logins")
    public String open() {
        return "welcome";
    }
}
