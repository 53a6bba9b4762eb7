package io.tollgate.sample;

import io.tollgate.RateLimited;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /api/lookups?q=tea}: a resource that is not a CDI bean, limited by the rule {@code lookups}, calling
 * {@link LookupService#search(String)}, limited by the same rule: a request takes two tokens, the resource's and
 * the service's.
 */
@Path("lookups")
public class LookupsResource {

    @GET
    @Produces(MediaType.TEXT_PLAIN)
    @RateLimited("lookups")
    public String search(@QueryParam("q") String q) {
        return CDI.current().select(LookupService.class).get().search(q);
    }
}
