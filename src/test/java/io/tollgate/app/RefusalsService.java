package io.tollgate.app;

import io.tollgate.RateLimited;
import jakarta.enterprise.context.ApplicationScoped;

/** A limited CDI bean called by {@link RefusalsResource}: its rule's key is the request's API key. */
@ApplicationScoped
public class RefusalsService {

    @RateLimited("service")
    public String call() {
        return "served";
    }
}
