package io.tollgate.app;

import io.tollgate.RateLimited;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.ServiceUnavailableException;
import jakarta.ws.rs.core.Response;

/**
 * Endpoints whose outcome decides their charge: a login whose failures alone count ({@code charge-on=status:401}),
 * and a flaky call whose server errors cost nothing ({@code refund-on=status:5xx}), failing every way a resource
 * can: a 500 it answers itself, a {@code WebApplicationException}, an exception a mapper answers, and one that no
 * mapper takes (the servlet container answers it).
 */
@Path("outcomes")
public class OutcomesResource {

    @POST
    @Path("login")
    @RateLimited("login")
    public Response login(@HeaderParam("X-Password") String password) {
        return "secret".equals(password) ? Response.ok("welcome").build() : Response.status(Response.Status.UNAUTHORIZED).build();
    }

    @GET
    @Path("flaky")
    @RateLimited("flaky")
    public Response flaky(@QueryParam("fail") String fail) {
        return answer(fail);
    }

    /** Limited by a path rule only. */
    @GET
    @Path("paths/{name}")
    public Response byPath(@PathParam("name") String name, @QueryParam("fail") String fail) {
        return answer(fail);
    }

    private static Response answer(String fail) {
        if (fail == null) {
            return Response.ok("fine").build();
        }
        switch (fail) {
            case "500":
                return Response.serverError().entity("failed").build();
            case "503":
                throw new ServiceUnavailableException();
            case "mapped":
                throw new UpstreamDown("upstream down");
            case "unmapped":
                throw new IllegalStateException("a bug of ours");
            case "404":
                return Response.status(Response.Status.NOT_FOUND).build();
            default:
                return Response.ok("fine").build();
        }
    }
}
