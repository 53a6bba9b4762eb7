package io.tollgate.app;

import io.tollgate.RateLimited;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

/** A JAX-RS resource that is not a CDI bean: only the filter sees its annotation. */
@Path("plain")
public class PlainResource {

    @GET
    @RateLimited("plain")
    public String get() {
        return "plain";
    }
}
