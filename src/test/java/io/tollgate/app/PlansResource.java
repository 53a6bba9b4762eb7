package io.tollgate.app;

import io.tollgate.RateLimited;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

/** Tiers: each rule applies only to the plan its match names. */
@Path("plans")
@RequestScoped
@RateLimited({"free-plan", "paid-plan"})
public class PlansResource {

    @GET
    public String get() {
        return "plan content";
    }
}
