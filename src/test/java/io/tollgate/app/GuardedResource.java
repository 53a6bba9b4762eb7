package io.tollgate.app;

import io.tollgate.RateLimited;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

/** Reads and writes without annotations, for path rules with conditions; and a limited service method for calls outside HTTP. */
@Path("guarded/{name}")
@ApplicationScoped
public class GuardedResource {

    @GET
    public String read(@PathParam("name") String name) {
        return "read " + name;
    }

    @POST
    public String write(@PathParam("name") String name) {
        return "wrote " + name;
    }

    /** Limited by the rule {@code keyed-service}, whatever calls it. */
    @RateLimited("keyed-service")
    public String service() {
        return "served";
    }
}
