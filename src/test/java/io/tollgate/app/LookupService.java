package io.tollgate.app;

import io.tollgate.RateLimited;
import jakarta.enterprise.context.ApplicationScoped;

/** A service whose method has the name, the parameter types and the rule of the resource method that calls it. */
@ApplicationScoped
public class LookupService {

    @RateLimited("lookups")
    public String search(String q) {
        return "found " + q;
    }
}
