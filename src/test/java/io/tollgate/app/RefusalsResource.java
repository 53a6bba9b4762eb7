package io.tollgate.app;

import io.tollgate.RateLimitKey;
import io.tollgate.RateLimited;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

/**
 * Refusals of each kind from each path: {@code filtered} is checked by the filter, {@code keyed/{tenant}} by the
 * interceptor (its {@code @RateLimitKey}), {@code service} calls a limited CDI bean whose key the request may lack.
 */
@Path("refusals")
@ApplicationScoped
public class RefusalsResource {

    @Inject
    RefusalsService service;

    @GET
    @Path("filtered")
    @RateLimited("filtered")
    public String filtered() {
        return "filtered";
    }

    @GET
    @Path("keyed/{tenant}")
    @RateLimited("keyed")
    public String keyed(@RateLimitKey @PathParam("tenant") String tenant) {
        return "keyed " + tenant;
    }

    @GET
    @Path("service")
    public String service() {
        return service.call();
    }
}
