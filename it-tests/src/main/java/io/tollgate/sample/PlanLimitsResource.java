package io.tollgate.sample;

import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /api/plan-limits}: no annotation; a rule whose {@code paths} name it may take each caller's limits from a
 * header the API gateway in front of the application sets ({@code limits-from=header:X-Plan-Limit}).
 */
@Path("plan-limits")
@RequestScoped
public class PlanLimitsResource {

    @GET
    @Produces(MediaType.TEXT_PLAIN)
    public String get() {
        return "plan content";
    }
}
