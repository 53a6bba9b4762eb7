package io.tollgate.app;

import io.tollgate.RateLimitKey;
import io.tollgate.RateLimited;
import jakarta.enterprise.context.ApplicationScoped;

/** A mistake: which argument is the key? */
@ApplicationScoped
public class TwoKeysService {

    @RateLimited("two")
    public String call(@RateLimitKey String a, @RateLimitKey String b) {
        return a + b;
    }
}
