package io.tollgate.app;

import io.tollgate.RateLimitKeyResolver;
import jakarta.enterprise.context.ApplicationScoped;
import java.lang.reflect.Method;
import java.util.concurrent.atomic.AtomicInteger;

/** A key resolver bean: every second call belongs to tenant b. */
@ApplicationScoped
public class TenantKeys implements RateLimitKeyResolver {

    private final AtomicInteger calls = new AtomicInteger();

    @Override
    public String resolve(String rule, Method method, Object[] arguments) {
        return calls.getAndIncrement() % 2 == 0 ? "tenant-a" : "tenant-b";
    }
}
