package io.tollgate.sample;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** {@code GET /api/reports/{tenant}}: not annotated; the limit is on {@link ReportService}. */
@Path("reports")
@RequestScoped
public class ReportsResource {

    @Inject
    ReportService reports;

    @GET
    @Path("{tenant}")
    @Produces(MediaType.TEXT_PLAIN)
    public String report(@PathParam("tenant") String tenant) {
        return reports.generate(tenant);
    }
}
