package io.tollgate.app;

import io.tollgate.RateLimited;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

/** A resource method inherited from an abstract superclass. */
public abstract class CatalogBase {

    @GET
    @Path("{id}")
    @RateLimited("catalog")
    public String entry(@PathParam("id") String id) {
        return "entry " + id;
    }
}
