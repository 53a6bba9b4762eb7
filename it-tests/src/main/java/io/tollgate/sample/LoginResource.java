package io.tollgate.sample;

import io.tollgate.RateLimited;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

/**
 * {@code POST /api/login}: 401 unless {@code X-Password} is right. Its rule {@code login} counts failed logins only
 * ({@code charge-on=status:401}), per user ({@code X-User}).
 */
@Path("login")
@RequestScoped
public class LoginResource {

    @POST
    @RateLimited("login")
    public Response login(@HeaderParam("X-Password") String password) {
        return "open-sesame".equals(password) ? Response.ok("welcome").build() : Response.status(Response.Status.UNAUTHORIZED).build();
    }
}
