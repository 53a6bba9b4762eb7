package io.tollgate;

import java.lang.reflect.Method;

/**
 * Computes bucket keys in application code; name the implementing CDI bean class in a rule's key,
 * e.g. {@code tollgate.rules.reports.key=resolver:com.example.TenantKeys}. Called on every check,
 * so it should be fast and must not block. Keys are worked out before anything is charged: an exception it throws
 * reaches the caller (in a JAX-RS request, the application's mapping of it, by default a 500) and no rule of the
 * call has charged anything.
 */
public interface RateLimitKeyResolver {

    /**
     * @param rule      the rule being checked
     * @param method    the intercepted method, or the JAX-RS resource method
     * @param arguments the call's arguments; empty in the JAX-RS filter, which runs before the
     *                  arguments are read
     * @return the key; {@code null} counts as the empty key
     */
    String resolve(String rule, Method method, Object[] arguments);
}
