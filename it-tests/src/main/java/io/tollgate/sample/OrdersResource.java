package io.tollgate.sample;

import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

/**
 * {@code /api/orders/{id}}: a sub-resource locator. It answers nothing itself; the {@link OrderLines} it
 * returns serves {@code GET /api/orders/{id}/lines}. Not annotated; the rule {@code orders} reaches it by
 * its {@code paths} setting ({@code /orders/**}).
 */
@Path("orders")
@RequestScoped
public class OrdersResource {

    @Path("{id}")
    public OrderLines order(@PathParam("id") String id) {
        return new OrderLines(id);
    }
}
