package io.tollgate.app;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** Answers {@link UpstreamDown} with 502, as an application maps its own failures. */
@Provider
public class UpstreamDownMapper implements ExceptionMapper<UpstreamDown> {

    @Override
    public Response toResponse(UpstreamDown exception) {
        return Response.status(Response.Status.BAD_GATEWAY).entity(exception.getMessage()).build();
    }
}
