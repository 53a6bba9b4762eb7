package io.tollgate.app;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;

/** Unannotated resources that call rate-limited services. */
@Path("reports")
@RequestScoped
public class ReportsResource {

    @Inject
    ReportService service;

    @GET
    @Path("{tenant}")
    public String report(@PathParam("tenant") String tenant) {
        return service.generate(tenant);
    }

    @GET
    @Path("complete")
    public String complete(@QueryParam("times") int times) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < Math.max(1, times); i++) {
            out.append(service.complete("prompt " + i)).append('\n');
        }
        return out.toString();
    }
}
