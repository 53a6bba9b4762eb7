package io.tollgate.sample.api;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /api/products/{id}}, declared the way OpenAPI generators write it (JAX-RS annotations on an
 * interface); implemented by {@link io.tollgate.sample.ProductsResource}, which names the rule on its method.
 */
public interface ProductsApi {

    @GET
    @Path("{id}")
    @Produces(MediaType.TEXT_PLAIN)
    String getProduct(@PathParam("id") String id);
}
