package io.tollgate.app;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

/** Another generated interface, implemented by a class that is limited as a whole. */
@Path("generated-reports")
public interface GeneratedReportsApi {

    @GET
    String latest();
}
