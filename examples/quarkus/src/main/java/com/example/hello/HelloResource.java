package com.example.hello;

import io.tollgate.RateLimited;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** {@code GET /api/hello?name=...}: limited by the rule {@code hello} (application.properties). */
@Path("hello")
public class HelloResource {

    @GET
    @Produces(MediaType.TEXT_PLAIN)
    @RateLimited("hello")
    public String hello(@QueryParam("name") String name) {
        return "Hello, " + (name == null ? "world" : name) + "!\n";
    }
}
