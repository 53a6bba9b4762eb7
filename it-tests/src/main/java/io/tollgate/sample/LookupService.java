package io.tollgate.sample;

import io.tollgate.RateLimited;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * A rate-limited CDI service whose method has the name, the parameter types and the rule ({@code lookups}) of the
 * resource method that calls it ({@link LookupsResource}): each call is charged, as any call of a service is.
 */
@ApplicationScoped
public class LookupService {

    @RateLimited("lookups")
    public String search(String q) {
        return "found " + q;
    }
}
