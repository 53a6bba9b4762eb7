package io.tollgate.sample;

import io.tollgate.RateLimited;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code POST /api/uploads}: limited by the rule {@code uploads}, whose cost the client states in
 * the {@code X-Request-Weight} header (see the configuration). The cost is checked and charged
 * before the body is read.
 */
@Path("uploads")
@RequestScoped
public class UploadResource {

    @POST
    @Consumes(MediaType.WILDCARD)
    @Produces(MediaType.TEXT_PLAIN)
    @RateLimited("uploads")
    public String upload(String body) {
        return "stored " + body.length() + " characters";
    }
}
