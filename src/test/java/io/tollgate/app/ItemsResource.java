package io.tollgate.app;

import io.tollgate.RateLimited;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

/** Unannotated reads (path rules reach them) and an upload whose cost the client states. */
@Path("items")
@ApplicationScoped
public class ItemsResource {

    @GET
    @Path("{id}")
    public String item(@PathParam("id") String id) {
        return "item " + id;
    }

    @POST
    @RateLimited("upload")
    public String upload() {
        return "stored";
    }
}
