package io.tollgate.app;

import io.tollgate.RateLimited;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;

/**
 * A JAX-RS resource that is not a CDI bean, calling {@link LookupService#search(String)}: the same method name,
 * parameter types and rule as its own. Jersey makes it through CDI, as an instance of no bean: the interceptor runs on it
 * too.
 */
@Path("plain-lookup")
public class PlainLookupResource {

    @Inject
    LookupService service;

    @GET
    @RateLimited("lookups")
    public String search(@QueryParam("q") String q) {
        return service.search(q);
    }
}
