package io.tollgate;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the parameter of a {@link RateLimited} method whose value ({@code String.valueOf}) is the
 * bucket key, e.g. {@code search(@RateLimitKey String tenant, String query)}. It takes precedence
 * over the rule's configured key for CDI calls. On a JAX-RS resource method, such a method is
 * checked by the interceptor (when the resource is a CDI bean), once the arguments are known.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface RateLimitKey {
}
