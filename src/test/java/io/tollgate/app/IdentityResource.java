package io.tollgate.app;

import io.tollgate.RateLimited;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

/** Limits from the caller's identity: one method limited by its annotation, one only by a path rule. */
@Path("identity")
@RequestScoped
public class IdentityResource {

    @GET
    @Path("annotated")
    @RateLimited("plan")
    public String annotated() {
        return "by annotation";
    }

    @GET
    @Path("by-path")
    public String byPath() {
        return "by path";
    }
}
