package io.tollgate.app;

import io.tollgate.RateLimited;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

/** A rule defined in the annotation itself, named after the method. */
@Path("inline")
@RequestScoped
public class InlineResource {

    @GET
    @RateLimited(rate = "2/1h", burst = 3, key = "global")
    public String get() {
        return "inline";
    }
}
