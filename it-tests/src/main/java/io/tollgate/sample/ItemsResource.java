package io.tollgate.sample;

import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /api/items/{id}}: not annotated; the rule {@code items} reaches it through its
 * {@code paths} setting ({@code /items/*}).
 */
@Path("items")
@RequestScoped
public class ItemsResource {

    @GET
    @Path("{id}")
    @Produces(MediaType.TEXT_PLAIN)
    public String item(@PathParam("id") String id) {
        return "item " + id;
    }
}
