package io.tollgate.internal.runtime;

import io.tollgate.RateLimitKeyResolver;
import io.tollgate.internal.config.TollgateConfig;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.internal.limiter.DecisionObserver;
import io.tollgate.internal.limiter.Limiter;
import io.tollgate.internal.limiter.RequestGate;
import io.tollgate.internal.limiter.TopDenied;
import io.tollgate.internal.request.HttpRequests;
import io.tollgate.internal.store.BucketStore;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Tollgate running inside one application: the resolved configuration, the open store, the
 * engine, and the per-method bindings (resolved once per method). Created at deployment by
 * the CDI extension, closed when the application stops.
 */
public final class Tollgate implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(Tollgate.class.getName());
    private static final String PROBE_KEY = "tollgate-health";
    private static final TokenBucket PROBE_BUCKET = TokenBucket.of(Limit.of(1, 1, Duration.ofSeconds(1)));

    private final TollgateConfig config;
    private final BucketStore store;
    private final Limiter limiter;
    private final RequestGate gate;
    private final HttpRequests httpRequests;
    private final RequestRecords requests;
    private final KeyAdmin admin;
    /**
     * Per class, per method as callers name it, what applies. Held here, not in a {@code ClassValue}: a value
     * attached to a class the server loaded (a runtime's own resource) would keep this application's classes
     * alive after it is undeployed.
     */
    private final Map<Class<?>, Map<Method, Binding>> bindings = new ConcurrentHashMap<>();

    /**
     * @param resolvers    the key resolvers the rules name, by class name
     * @param observer     told of every decision (the metrics, the application's events)
     * @param httpRequests where the HTTP request being served comes from when JAX-RS did not hand it over
     * @param requests     where the record of each HTTP request is kept
     */
    public Tollgate(TollgateConfig config, BucketStore store, Map<String, RateLimitKeyResolver> resolvers,
            DecisionObserver observer, HttpRequests httpRequests, RequestRecords requests) {
        this.config = config;
        this.store = store;
        this.httpRequests = httpRequests;
        this.requests = requests;
        TopDenied topDenied = config.topDenied() == 0 ? null : new TopDenied(config.rules().values(), config.topDenied(),
                TopDenied.stripesForThisMachine(), TopDenied.WALL_CLOCK);
        this.limiter = new Limiter(store, config.storeTimeout(),
                topDenied == null ? observer : DecisionObserver.both(observer, topDenied));
        this.admin = new KeyAdmin(config, store, topDenied);
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

    /** @return the operator's view: inspect and reset buckets, list the rules */
    public KeyAdmin admin() {
        return admin;
    }

    /** @return where the HTTP request being served comes from when JAX-RS did not hand it over */
    public HttpRequests httpRequests() {
        return httpRequests;
    }

    /** @return the records of the HTTP requests being served */
    public RequestRecords requests() {
        return requests;
    }

    /**
     * @return what applies to {@code method} called on an instance of {@code type}, whether the caller names the
     *         class's own method or the interface method it implements (resolved once for each)
     */
    public Binding binding(Class<?> type, Method method) {
        return bindings.computeIfAbsent(type, t -> new ConcurrentHashMap<>())
                .computeIfAbsent(method, m -> Binding.of(type, m, config));
    }

    /**
     * Asks the store a read-only question (cost 0, nothing is written), bounded by the store timeout.
     *
     * @return {@code null} if the store answered, else what went wrong
     */
    public String probeStore() {
        long timeoutMillis = config.storeTimeout().toMillis();
        try {
            store.acquire(PROBE_KEY, PROBE_BUCKET, 0).toCompletableFuture().get(timeoutMillis, TimeUnit.MILLISECONDS);
            return null;
        } catch (TimeoutException e) {
            return "the rate-limit store did not answer within " + timeoutMillis + " ms";
        } catch (ExecutionException e) {
            return "the rate-limit store failed: " + e.getCause();
        } catch (RuntimeException e) {
            return "the rate-limit store failed: " + e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    @Override
    public void close() {
        bindings.clear();
        try {
            store.close();
        } catch (Exception e) {
            LOG.log(Level.WARNING, "Closing the rate-limit store failed", e);
        }
    }
}
