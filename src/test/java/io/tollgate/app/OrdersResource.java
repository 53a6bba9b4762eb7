package io.tollgate.app;

import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

/** Orders with their lines served by a sub-resource, as a locator returns it; no annotation anywhere. */
@Path("orders")
@RequestScoped
public class OrdersResource {

    @Path("{id}")
    public Order order(@PathParam("id") String id) {
        return new Order(id);
    }

    /** The sub-resource: not known to the runtime until the locator returns it. */
    public static final class Order {
        private final String id;

        Order(String id) {
            this.id = id;
        }

        @GET
        @Path("lines")
        public String lines() {
            return "lines of " + id;
        }
    }
}
