package io.tollgate.internal.jaxrs;

import io.tollgate.InvalidCostException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** A bad cost found by the interceptor: 400 with a problem body, as from the filter. */
@Provider
public class InvalidCostMapper implements ExceptionMapper<InvalidCostException> {

    /** The application's bodies of refusals, looked up on the first. */
    private final RefusalBodies bodies = new RefusalBodies();

    @Override
    public Response toResponse(InvalidCostException exception) {
        return Responses.invalidCost(exception, bodies);
    }
}
