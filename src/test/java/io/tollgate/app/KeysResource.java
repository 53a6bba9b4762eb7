package io.tollgate.app;

import io.tollgate.RateLimited;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

/** One endpoint per key source. */
@Path("keys")
@RequestScoped
public class KeysResource {

    @GET
    @Path("ip")
    @RateLimited("by-ip")
    public String ip() {
        return "ok";
    }

    @GET
    @Path("header")
    @RateLimited("by-header")
    public String header() {
        return "ok";
    }

    @GET
    @Path("query")
    @RateLimited("by-query")
    public String query() {
        return "ok";
    }

    @GET
    @Path("principal")
    @RateLimited("by-principal")
    public String principal() {
        return "ok";
    }

    @GET
    @Path("claim")
    @RateLimited("by-claim")
    public String claim() {
        return "ok";
    }

    @GET
    @Path("path/{item}")
    @RateLimited("by-path")
    public String path(@PathParam("item") String item) {
        return "ok " + item;
    }

    @GET
    @Path("composite")
    @RateLimited("by-composite")
    public String composite() {
        return "ok";
    }

    @GET
    @Path("global")
    @RateLimited("everyone")
    public String global() {
        return "ok";
    }

    @GET
    @Path("resolver")
    @RateLimited("by-resolver")
    public String resolver() {
        return "ok";
    }
}
