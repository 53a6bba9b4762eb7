package io.tollgate.internal.runtime;

import io.tollgate.Decision;
import io.tollgate.RateLimitKeyResolver;
import io.tollgate.internal.config.BucketLimits;
import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.config.TollgateConfig;
import io.tollgate.internal.core.Clock;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.internal.limiter.DecisionObserver;
import io.tollgate.internal.limiter.Limiter;
import io.tollgate.internal.limiter.RequestGate;
import io.tollgate.internal.limiter.RuleCheck;
import io.tollgate.internal.request.CallResult;
import io.tollgate.internal.limiter.TopDenied;
import io.tollgate.internal.request.HttpRequests;
import io.tollgate.internal.store.Bans;
import io.tollgate.internal.store.BucketStore;
import io.tollgate.internal.store.InMemoryBucketStore;
import io.tollgate.internal.store.StoreCluster;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
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
    private final StoreCluster cluster;
    private final DecisionObserver observer;
    private final Limiter limiter;
    private final RequestGate gate;
    private final HttpRequests httpRequests;
    private final RequestRecords requests;
    private final KeyAdmin admin;
    /** Whether a rule keeps its charge or not by the outcome ({@code charge-on}, {@code refund-on}). */
    private final boolean settlesByOutcome;
    /**
     * Per class, per method as callers name it, what applies. Held here, not in a {@code ClassValue}: a value
     * attached to a class the server loaded (a runtime's own resource) would keep this application's classes
     * alive after it is undeployed.
     */
    private final Map<Class<?>, Map<Method, Binding>> bindings = new ConcurrentHashMap<>();
    private final ClusterWarnings clusterWarnings;
    /** The rules' changes at runtime; set once the deployment has started them. */
    private volatile LiveRules liveRules;

    /**
     * @param store        the store, stacked as it is used; closed with this
     * @param bans         the rules' bans after repeated denials, shared as the store is; closed with this
     * @param cluster      the store's cluster, as the quorum, the local shares and the readiness check see it
     * @param resolvers    the key resolvers the rules name, by class name
     * @param observer     told of every decision (the metrics, the application's events)
     * @param httpRequests where the HTTP request being served comes from when JAX-RS did not hand it over
     * @param requests     where the record of each HTTP request is kept
     */
    public Tollgate(TollgateConfig config, BucketStore store, Bans bans, StoreCluster cluster,
            Map<String, RateLimitKeyResolver> resolvers, DecisionObserver observer, HttpRequests httpRequests,
            RequestRecords requests) {
        this.config = config;
        this.store = store;
        this.cluster = cluster;
        this.observer = observer;
        this.httpRequests = httpRequests;
        this.requests = requests;
        this.settlesByOutcome = config.enabled() && config.rules().values().stream().anyMatch(rule -> !rule.outcomes().isNone());
        TopDenied topDenied = config.topDenied() == 0 ? null : new TopDenied(config.rules().values(), config.topDenied(),
                TopDenied.stripesForThisMachine(), TopDenied.WALL_CLOCK);
        this.limiter = new Limiter(store, config.storeTimeout(),
                topDenied == null ? observer : DecisionObserver.both(observer, topDenied), bans, cluster, config.cluster().quorum());
        this.clusterWarnings = ClusterWarnings.start(cluster, config.cluster(), config.enabled());
        this.admin = new KeyAdmin(config, store, limiter.bans(), topDenied, observer);
        this.gate = new RequestGate(limiter, name -> {
            RateLimitKeyResolver resolver = resolvers.get(name);
            if (resolver == null) {
                throw new IllegalStateException("no key resolver bean " + name);
            }
            return resolver;
        });
    }

    /**
     * @return Tollgate as {@code tollgate.enabled=false} has it: the configuration read and checked, and nothing
     *         started: no store but an empty table in this JVM (so operators see every bucket full and none banned), no
     *         threads, no cluster; the filter and the interceptor pass every call ({@link #enabled()})
     */
    public static Tollgate disabled(TollgateConfig config) {
        InMemoryBucketStore empty = new InMemoryBucketStore(Clock.SYSTEM, 1);
        return new Tollgate(config, empty, Bans.local(empty, 1), StoreCluster.ALONE, Map.of(), DecisionObserver.NONE,
                HttpRequests.NONE, RequestRecords.NONE);
    }

    /** @return whether Tollgate limits anything here ({@code tollgate.enabled}); if not, every call passes uncharged */
    public boolean enabled() {
        return config.enabled();
    }

    /**
     * @return what {@code tollgate.enabled=false} answers a programmatic check of {@code rule}: allowed, {@code cost}
     *         as asked, nothing charged, its first limit for {@code key} reported full (remaining and limit its burst),
     *         every time 0 and no flag set
     * @throws IllegalArgumentException for a cost the rule's limits can never grant, as when enabled
     */
    public static Decision unlimited(RuleConfig rule, String key, long cost) {
        BucketLimits limits = rule.live().limits(key);
        limits.bucket().checkCost(cost);
        long burst = limits.limits().get(0).burst();
        return Decision.builder(rule.name()).allowed(true).cost(cost).remaining(burst).burst(burst, 0).build();
    }

    public TollgateConfig config() {
        return config;
    }

    /** @return what changes the rules at runtime */
    public LiveRules liveRules() {
        LiveRules rules = liveRules;
        if (rules == null && !enabled()) {
            throw new IllegalStateException("tollgate.enabled = false: Tollgate limits nothing in this application, and its rules "
                    + "are not running to be changed");
        }
        if (rules == null) {
            throw new IllegalStateException("Tollgate's rules cannot be changed yet: the application has not started");
        }
        return rules;
    }

    /** Hands over what changes the rules at runtime, which this closes with the rest. */
    public void liveRules(LiveRules rules) {
        this.liveRules = rules;
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

    /**
     * @return the rules' bans after repeated denials, for operators: a key's ban ({@link Bans#until}), lifting it on
     *         every member ({@link Bans#lift}), a rule's current bans by key hash ({@link Bans#list})
     */
    public Bans bans() {
        return limiter.bans();
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
     * Settles what {@code record} keeps for the request's end, now that its response's status is known: each check
     * whose rule refunds that outcome gets its tokens back, and the record's checks report the buckets after it.
     * Once per request; a second call (the servlet layer after the JAX-RS response filter) finds nothing left.
     */
    public void settle(RequestRecord record, int status) {
        for (RequestRecord.Pending pending : record.takePending()) {
            RuleCheck charged = pending.check();
            RuleCheck settled = gate.settle(List.of(charged), new CallResult(status, pending.thrown())).get(0);
            if (settled != charged) {
                record.replace(charged, settled);
            }
        }
    }

    /** @return whether a rule keeps its charge or not by the outcome, so that requests are settled as they end */
    public boolean settlesByOutcome() {
        return settlesByOutcome;
    }

    /**
     * Settles what {@code record} still keeps as its request ends without a known status. A JAX-RS request that no
     * response filter saw ended in an exception no mapper took, which the server answers with an error: it is
     * settled as a 500. Anything else (a servlet's response, whose status Tollgate cannot read) keeps its charge.
     */
    public void settleUnanswered(RequestRecord record) {
        if (record.isJaxrs()) {
            settle(record, 500);
        } else {
            record.takePending();
        }
    }

    /** @return the store's cluster, as the quorum, the local shares and the readiness check see it */
    public StoreCluster cluster() {
        return cluster;
    }

    /**
     * Tells whether the store's cluster is as large as it should be ({@code tollgate.cluster.min-members} and
     * {@code tollgate.cluster.quorum}), and if so asks the store a read-only question (cost 0, nothing is written),
     * bounded by the store timeout.
     *
     * @return {@code null} if the cluster is large enough and the store answered, else what is wrong
     */
    public String probeStore() {
        String problem = cluster.problem();
        if (problem != null) {
            return problem;
        }
        int members = cluster.members();
        int wanted = Math.max(config.cluster().minMembers(), config.cluster().quorum());
        if (members < wanted) {
            return ClusterWarnings.tooFew(members, config.cluster(), cluster.discovery());
        }
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
        clusterWarnings.close();
        LiveRules rules = liveRules;
        if (rules != null) {
            rules.close();
        }
        try {
            limiter.bans().close();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Closing the bans failed", e);
        }
        try {
            store.close();
        } catch (Exception e) {
            LOG.log(Level.WARNING, "Closing the rate-limit store failed", e);
        }
        try {
            observer.close();
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "Closing the decision observers failed", e);
        }
    }
}
