package io.tollgate.internal.jaxrs;

import io.tollgate.MissingKeyException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** A missing key part found by the interceptor ({@code on-missing-key=reject}): 400 with a problem body, as from the filter. */
@Provider
public class MissingKeyMapper implements ExceptionMapper<MissingKeyException> {

    /** The application's bodies of refusals, looked up on the first. */
    private final RefusalBodies bodies = new RefusalBodies();

    @Override
    public Response toResponse(MissingKeyException exception) {
        return Responses.missingKey(exception, bodies);
    }
}
