package io.tollgate.internal.cdi;

import io.tollgate.RateLimitKeyResolver;
import io.tollgate.internal.config.TollgateConfig;
import io.tollgate.internal.limiter.Limiter;
import io.tollgate.internal.limiter.RequestGate;
import io.tollgate.internal.store.BucketStore;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Tollgate running inside one application: the resolved configuration, the open store, the
 * engine, and the per-method bindings (resolved once per method). Created at deployment by
 * {@link TollgateExtension}, closed when the application stops.
 */
public final class Tollgate implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(Tollgate.class.getName());

    private final TollgateConfig config;
    private final BucketStore store;
    private final Limiter limiter;
    private final RequestGate gate;
    private final ClassValue<Map<Method, Binding>> bindings = new ClassValue<>() {
        @Override
        protected Map<Method, Binding> computeValue(Class<?> type) {
            return new ConcurrentHashMap<>();
        }
    };

    Tollgate(TollgateConfig config, BucketStore store, Map<String, RateLimitKeyResolver> resolvers) {
        this.config = config;
        this.store = store;
        this.limiter = new Limiter(store, config.storeTimeout());
        this.gate = new RequestGate(limiter, name -> {
            RateLimitKeyResolver resolver = resolvers.get(name);
            if (resolver == null) {
                throw new IllegalStateException("no key resolver bean " + name);
            }
            return resolver;
        });
    }

    public TollgateConfig config() {
        return config;
    }

    public Limiter limiter() {
        return limiter;
    }

    public RequestGate gate() {
        return gate;
    }

    /** @return what applies to {@code method} called on an instance of {@code type} */
    public Binding binding(Class<?> type, Method method) {
        return bindings.get(type).computeIfAbsent(method, m -> Binding.of(type, m, config));
    }

    @Override
    public void close() {
        try {
            store.close();
        } catch (Exception e) {
            LOG.log(Level.WARNING, "Closing the rate-limit store failed", e);
        }
    }
}
