package io.tollgate.app;

import io.tollgate.RateLimited;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.Path;

/** Implements the generic {@link FinderApi} for numbers: the compiler adds a bridge {@code find(Object)}. */
@Path("finder")
@RequestScoped
public class NumberFinderResource implements FinderApi<Long> {

    @Override
    @RateLimited("finder")
    public String find(Long id) {
        return "number " + id;
    }
}
