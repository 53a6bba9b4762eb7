package io.tollgate.jaxrs;

import io.tollgate.internal.jaxrs.AdminAbsenceFilter;
import io.tollgate.internal.jaxrs.InvalidCostMapper;
import io.tollgate.internal.jaxrs.MissingKeyMapper;
import io.tollgate.internal.jaxrs.RateLimitAdminResource;
import io.tollgate.internal.jaxrs.RateLimitExceededMapper;
import io.tollgate.internal.jaxrs.RateLimitFeature;
import java.util.Set;

/**
 * Tollgate's JAX-RS classes, for an application whose {@code Application} subclass lists its classes instead of
 * letting the server scan for them (scanning finds these by itself):
 *
 * <pre>{@code
 * public Set<Class<?>> getClasses() {
 *     Set<Class<?>> classes = new HashSet<>(TollgateProviders.classes());
 *     classes.add(SearchResource.class);
 *     return classes;
 * }
 * }</pre>
 */
public final class TollgateProviders {

    private TollgateProviders() {
    }

    /**
     * @return the filter that applies the rules, the mappers of Tollgate's refusals, and the admin resource with the
     *         filter that hides it while it is off (the default)
     */
    public static Set<Class<?>> classes() {
        return Set.of(RateLimitFeature.class, RateLimitExceededMapper.class, InvalidCostMapper.class, MissingKeyMapper.class,
                RateLimitAdminResource.class, AdminAbsenceFilter.class);
    }
}
