package io.tollgate.sample;

import io.tollgate.RateLimited;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * Identical endpoints for the HTTP benchmark (bench-http.sh): one under a rule that always allows
 * (one bucket for the load generator's address: a hot key), one under a rule that always allows with
 * a bucket per client, one without any rule, one under a rule that denies almost everything.
 */
@Path("bench")
@ApplicationScoped
@Produces(MediaType.TEXT_PLAIN)
public class BenchResource {

    @GET
    @Path("limited")
    @RateLimited("bench-allowed")
    public String limited() {
        return "ok";
    }

    @GET
    @Path("per-client")
    @RateLimited("bench-per-client")
    public String perClient() {
        return "ok";
    }

    @GET
    @Path("open")
    public String open() {
        return "ok";
    }

    @GET
    @Path("denied")
    @RateLimited("bench-denied")
    public String denied() {
        return "ok";
    }
}
