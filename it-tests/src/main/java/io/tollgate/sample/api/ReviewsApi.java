package io.tollgate.sample.api;

import io.tollgate.RateLimited;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /api/reviews/{id}}, declared on an interface as OpenAPI generators write it, with the rule
 * named on the interface method; implemented by {@link io.tollgate.sample.ReviewsResource}.
 */
public interface ReviewsApi {

    @GET
    @Path("{id}")
    @Produces(MediaType.TEXT_PLAIN)
    @RateLimited("reviews")
    String getReview(@PathParam("id") String id);
}
