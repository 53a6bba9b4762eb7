package io.tollgate.sample;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** The sub-resource of one order, returned by {@link OrdersResource#order}. */
public class OrderLines {

    private final String order;

    OrderLines(String order) {
        this.order = order;
    }

    @GET
    @Path("lines")
    @Produces(MediaType.TEXT_PLAIN)
    public String lines() {
        return "lines of order " + order;
    }
}
