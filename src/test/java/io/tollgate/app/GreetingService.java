package io.tollgate.app;

import io.tollgate.RateLimited;
import jakarta.enterprise.context.ApplicationScoped;

/** A limited CDI service that a plain servlet calls: the request is known to Tollgate without JAX-RS. */
@ApplicationScoped
public class GreetingService {

    @RateLimited("greet-by-ip")
    public String greet(String name) {
        return "hello " + name;
    }

    @RateLimited("greet-gold")
    public String greetGold(String name) {
        return "hello gold " + name;
    }

    @RateLimited("greet-by-path")
    public String greetPath(String name) {
        return "hello path " + name;
    }
}
