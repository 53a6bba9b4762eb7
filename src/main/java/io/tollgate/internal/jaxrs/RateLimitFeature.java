package io.tollgate.internal.jaxrs;

import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.config.StoreType;
import io.tollgate.internal.runtime.Binding;
import io.tollgate.internal.runtime.Tollgate;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.DynamicFeature;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.FeatureContext;
import jakarta.ws.rs.ext.Provider;
import java.lang.reflect.Method;
import java.util.List;

/**
 * Binds a {@link RateLimitFilter}, with the method's rules resolved now, to every resource method;
 * the filter also applies path rules and makes the request known to interceptors. A method with a
 * {@code @RateLimitKey} parameter is left to the interceptor, which sees the arguments.
 */
@Provider
public class RateLimitFeature implements DynamicFeature {

    /** After authentication (keys may use the principal or JWT claims), before authorization. */
    static final int PRIORITY = Priorities.AUTHENTICATION + 500;

    /** One per application, made on first use: the application's runtime is not known before. */
    private PeerAddress peerAddress;
    /** Where the application's decisions run, found on first use as {@link #peerAddress}. */
    private FilterThreads threads;
    /** The application's bodies of refusals. */
    private final RefusalBodies bodies = new RefusalBodies();

    @Override
    public void configure(ResourceInfo resource, FeatureContext context) {
        CDI<Object> cdi = CDI.current();
        BeanManager beans = cdi.getBeanManager();
        Tollgate tollgate = cdi.select(Tollgate.class).get();
        if (!tollgate.enabled()) {
            return; // tollgate.enabled=false: no filter, no charge, no headers
        }
        Class<?> type = resource.getResourceClass();
        Method method = resource.getResourceMethod();
        Binding binding = tollgate.binding(type, method);
        List<RuleConfig> rules = binding.rules();
        if (binding.keyParameter() >= 0) {
            if (beans.getBeans(type).isEmpty()) {
                throw new IllegalStateException(type.getName() + "." + method.getName() + " has a @RateLimitKey parameter, "
                        + "which the interceptor reads, but " + type.getName() + " is not a CDI bean; give it a scope such as @RequestScoped");
            }
            rules = List.of();
        }
        context.register(new RateLimitFilter(tollgate, method, binding, rules, peerAddress(tollgate), bodies,
                threads(cdi, tollgate)), PRIORITY);
        context.register(new RateLimitResponseFilter(tollgate), PRIORITY);
    }

    /**
     * @return the runtime's threads for decisions that may block, if it gives them; else, and for the in-memory store,
     *         which never blocks, the request's own
     */
    private synchronized FilterThreads threads(CDI<Object> cdi, Tollgate tollgate) {
        if (threads == null) {
            Instance<FilterThreads> given = cdi.select(FilterThreads.class);
            threads = tollgate.config().storeType() == StoreType.MEMORY || !given.isResolvable() ? FilterThreads.CALLER
                    : given.get();
        }
        return threads;
    }

    private synchronized PeerAddress peerAddress(Tollgate tollgate) {
        if (peerAddress == null) {
            peerAddress = new PeerAddress(tollgate.httpRequests());
        }
        return peerAddress;
    }
}
