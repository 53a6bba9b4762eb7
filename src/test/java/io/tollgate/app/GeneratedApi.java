package io.tollgate.app;

import io.tollgate.RateLimited;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

/** An API interface the way OpenAPI generators write it: the JAX-RS annotations here, the code in a class. */
@Path("generated")
public interface GeneratedApi {

    @GET
    @Path("on-class-method/{id}")
    String onClassMethod(@PathParam("id") String id);

    @GET
    @Path("on-interface-method/{id}")
    @RateLimited("generated")
    String onInterfaceMethod(@PathParam("id") String id);
}
