package io.tollgate.app;

import io.tollgate.RateLimited;
import jakarta.enterprise.context.RequestScoped;

/** The implementation of {@link GeneratedApi}: one limit on its own method, one inherited from the interface. */
@RequestScoped
public class GeneratedApiImpl implements GeneratedApi {

    @Override
    @RateLimited("generated")
    public String onClassMethod(String id) {
        return "class method " + id;
    }

    @Override
    public String onInterfaceMethod(String id) {
        return "interface method " + id;
    }
}
