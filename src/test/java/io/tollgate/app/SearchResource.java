package io.tollgate.app;

import io.tollgate.RateLimited;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;

/** A CDI resource with a configured rule: checked by the filter, not charged again by the interceptor. */
@Path("search")
@RequestScoped
public class SearchResource {

    @GET
    @RateLimited("search")
    public String search(@QueryParam("q") String q) {
        return "results for " + q;
    }
}
