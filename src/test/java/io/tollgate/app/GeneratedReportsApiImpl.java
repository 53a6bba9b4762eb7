package io.tollgate.app;

import io.tollgate.RateLimited;
import jakarta.enterprise.context.ApplicationScoped;

/** {@code @RateLimited} on the implementing class: every method of the interface is limited. */
@ApplicationScoped
@RateLimited("generated")
public class GeneratedReportsApiImpl implements GeneratedReportsApi {

    @Override
    public String latest() {
        return "latest report";
    }
}
