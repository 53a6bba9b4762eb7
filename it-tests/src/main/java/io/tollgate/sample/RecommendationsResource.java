package io.tollgate.sample;

import io.tollgate.RateLimited;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /api/recommendations}: a new rule tried in shadow mode. Tollgate decides, counts and
 * logs, but never rejects and sends no rate-limit headers.
 */
@Path("recommendations")
@RequestScoped
public class RecommendationsResource {

    @GET
    @Produces(MediaType.TEXT_PLAIN)
    @RateLimited("recommendations")
    public String recommend() {
        return "you may also like: green tea";
    }
}
