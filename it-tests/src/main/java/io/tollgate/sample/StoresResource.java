package io.tollgate.sample;

import io.tollgate.RateLimited;
import io.tollgate.sample.api.StoresApi;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.Path;

/** Implements the generated {@link StoresApi}; the rule {@code stores} is named on the class. */
@Path("stores")
@RequestScoped
@RateLimited("stores")
public class StoresResource implements StoresApi {

    @Override
    public String getStore(String id) {
        return "store " + id;
    }
}
