package io.tollgate.sample.api;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /api/stores/{id}}, declared on an interface as OpenAPI generators write it; implemented by
 * {@link io.tollgate.sample.StoresResource}, which names the rule on its class.
 */
public interface StoresApi {

    @GET
    @Path("{id}")
    @Produces(MediaType.TEXT_PLAIN)
    String getStore(@PathParam("id") String id);
}
