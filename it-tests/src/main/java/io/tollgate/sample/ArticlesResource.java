package io.tollgate.sample;

import io.tollgate.RateLimited;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /api/articles/{id}}: limited by the rule {@code articles}, whose key includes the request
 * path ({@code key=path}), so each article has its own bucket.
 */
@Path("articles")
@RequestScoped
public class ArticlesResource {

    @GET
    @Path("{id}")
    @Produces(MediaType.TEXT_PLAIN)
    @RateLimited("articles")
    public String article(@PathParam("id") String id) {
        return "article " + id;
    }
}
