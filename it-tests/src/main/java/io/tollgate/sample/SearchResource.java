package io.tollgate.sample;

import io.tollgate.RateLimited;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** {@code GET /api/search?q=tea}: limited by the rule {@code search}. */
@Path("search")
@RequestScoped
public class SearchResource {

    @GET
    @Produces(MediaType.TEXT_PLAIN)
    @RateLimited("search")
    public String search(@QueryParam("q") String q) {
        return "results for " + q;
    }
}
