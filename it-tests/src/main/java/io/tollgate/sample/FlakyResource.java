package io.tollgate.sample;

import io.tollgate.RateLimited;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.ServiceUnavailableException;
import jakarta.ws.rs.core.Response;

/**
 * {@code GET /api/flaky?fail=}: fails as a server can, {@code 500} (its own answer), {@code 503} (a
 * {@code WebApplicationException}) or {@code unmapped} (an exception no mapper takes: the server answers 500); else
 * 200. Its rule {@code flaky} gives back the tokens of server errors ({@code refund-on=status:5xx}).
 */
@Path("flaky")
@RequestScoped
public class FlakyResource {

    @GET
    @RateLimited("flaky")
    public Response flaky(@QueryParam("fail") String fail) {
        if ("500".equals(fail)) {
            return Response.serverError().entity("failed").build();
        }
        if ("503".equals(fail)) {
            throw new ServiceUnavailableException();
        }
        if ("unmapped".equals(fail)) {
            throw new IllegalStateException("a bug of ours");
        }
        return Response.ok("fine").build();
    }
}
