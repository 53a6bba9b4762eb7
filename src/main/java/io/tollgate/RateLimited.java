package io.tollgate;

import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Rate-limits a CDI bean method, or every business method of a type, and any JAX-RS resource
 * method (checked by a request filter before the body is read).
 *
 * <p>{@code @RateLimited("search")} applies the rule {@code search} from MicroProfile Config
 * ({@code tollgate.rules.search.*}); several names apply several rules, all of which must allow the
 * call. The attributes below define or complete a rule in the annotation itself; configuration
 * overrides each of them. With no name, the rule is named after the annotated element:
 * {@code com.example.Api.search} for a method, {@code com.example.Api} for a type.
 *
 * <p>A denied call throws {@link RateLimitExceededException}; over HTTP it becomes a
 * {@code 429 Too Many Requests}. Within one HTTP request a JAX-RS resource method that is also a
 * CDI bean is charged once, not twice.
 */
@Inherited
@Documented
@InterceptorBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface RateLimited {

    /** @return the names of the rules to apply; empty for one inline rule named after the element */
    @Nonbinding
    String[] value() default {};

    /**
     * @return the refill rate: tokens per second as a decimal ({@code "10"}, {@code "0.5"}) or
     *         {@code "<tokens>/<period>"} ({@code "1000/1h"}, {@code "5/100ms"}); overridden by
     *         {@code tollgate.rules.<name>.rate}. Empty: taken from configuration.
     */
    @Nonbinding
    String rate() default "";

    /**
     * @return the capacity in tokens, at least 1 and at least any cost; 0 means the tokens of one
     *         rate period ({@code "10"} per second gives 10). Overridden by {@code tollgate.rules.<name>.burst}.
     */
    @Nonbinding
    long burst() default 0;

    /**
     * @return the bucket key: {@code ip}, {@code principal}, {@code header:<name>},
     *         {@code query:<name>}, {@code jwt:<claim>}, {@code path}, {@code global}, or
     *         {@code resolver:<class>}; comma-separated for a composite key (whose form
     *         {@link RateLimitKeys#composite} gives). Empty: {@code ip}
     *         over HTTP. A {@link RateLimitKey} parameter takes precedence on CDI calls.
     */
    @Nonbinding
    String key() default "";

    /**
     * @return the cost of a call: a whole number, {@code header:<name>} or {@code query:<name>}.
     *         Empty: 1.
     */
    @Nonbinding
    String cost() default "";
}
