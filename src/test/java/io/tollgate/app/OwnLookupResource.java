package io.tollgate.app;

import io.tollgate.RateLimited;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;

/**
 * A JAX-RS resource the application makes itself (as {@code Application.getSingletons()} returns it): not a CDI
 * bean, and no interceptor runs on it. It calls {@link LookupService#search(String)}, a method of the same name,
 * parameter types and rule as its own.
 */
@Path("own-lookup")
public class OwnLookupResource {

    @GET
    @RateLimited("lookups")
    public String search(@QueryParam("q") String q) {
        return CDI.current().select(LookupService.class).get().search(q);
    }
}
