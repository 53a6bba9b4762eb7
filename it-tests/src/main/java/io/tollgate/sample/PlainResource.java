package io.tollgate.sample;

import io.tollgate.RateLimited;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /api/plain/{id}}: a resource that is not a CDI bean (no scope annotation; JAX-RS creates it
 * per request), limited by the rule {@code plain}.
 */
@Path("plain")
public class PlainResource {

    @GET
    @Path("{id}")
    @Produces(MediaType.TEXT_PLAIN)
    @RateLimited("plain")
    public String get(@PathParam("id") String id) {
        return "plain " + id;
    }
}
