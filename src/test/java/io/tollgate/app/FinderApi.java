package io.tollgate.app;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

/** A generic API interface: its implementations get bridge methods. */
public interface FinderApi<K> {

    @GET
    @Path("{id}")
    String find(@PathParam("id") K id);
}
