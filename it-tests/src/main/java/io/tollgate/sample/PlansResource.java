package io.tollgate.sample;

import io.tollgate.RateLimited;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /api/plans}: tiers. Both rules are named here; each applies only to the requests its
 * {@code match} selects ({@code X-Plan: free} or {@code X-Plan: paid}).
 */
@Path("plans")
@RequestScoped
@RateLimited({"free-plan", "paid-plan"})
public class PlansResource {

    @GET
    @Produces(MediaType.TEXT_PLAIN)
    public String content(@HeaderParam("X-Plan") String plan) {
        return "content for the " + (plan == null ? "anonymous" : plan) + " plan";
    }
}
