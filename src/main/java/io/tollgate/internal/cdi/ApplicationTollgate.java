package io.tollgate.internal.cdi;

import io.tollgate.RateLimitKeyResolver;
import io.tollgate.RateLimitRuleChanged;
import io.tollgate.RateLimited;
import io.tollgate.internal.config.ConfigReader;
import io.tollgate.internal.config.InvalidConfigurationException;
import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.config.RuleDefaults;
import io.tollgate.internal.config.RuleEditor;
import io.tollgate.internal.config.Settings;
import io.tollgate.internal.config.StoreType;
import io.tollgate.internal.config.TollgateConfig;
import io.tollgate.internal.core.Clock;
import io.tollgate.internal.hazelcast.HazelcastBackend;
import io.tollgate.internal.hazelcast.HazelcastStores;
import io.tollgate.internal.hazelcast.HazelcastThreadLocals;
import io.tollgate.internal.limiter.DecisionObserver;
import io.tollgate.internal.limiter.LateObserver;
import io.tollgate.internal.request.HttpRequests;
import io.tollgate.internal.runtime.Binding;
import io.tollgate.internal.runtime.LiveRules;
import io.tollgate.internal.runtime.SharedRules;
import io.tollgate.internal.runtime.Tollgate;
import io.tollgate.internal.store.Bans;
import io.tollgate.internal.store.BatchingBucketStore;
import io.tollgate.internal.store.BucketStore;
import io.tollgate.internal.store.InMemoryBucketStore;
import io.tollgate.internal.store.StoreCluster;
import io.tollgate.internal.store.StoreStack;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Tollgate as one application runs it, whichever container starts it: the CDI extension of Payara, Open Liberty and
 * WildFly ({@link TollgateExtension}) or Tollgate's Quarkus extension. Each hands over the classes that use
 * {@link RateLimited} ({@link #collect}), then asks for the configuration to be read and checked ({@link #configure}),
 * then starts it ({@link #start}) and stops it with the application ({@link #stop}). One path for the rules, the
 * bindings and the stores on every container.
 */
public final class ApplicationTollgate implements RunningTollgate {

    private static final Logger LOG = Logger.getLogger(ApplicationTollgate.class.getName());
    private static final String METRICS_BINDING = "io.tollgate.internal.metrics.MetricsBinding";
    private static final String METRICS_API = "org.eclipse.microprofile.metrics.MetricRegistry";
    private static final String TELEMETRY_BINDING = "io.tollgate.internal.telemetry.TelemetryBinding";
    private static final String TELEMETRY_API = "io.opentelemetry.api.OpenTelemetry";

    private final Map<String, RuleDefaults> annotations = new LinkedHashMap<>();
    /** The classes that use the annotation, each with the methods its container sees on it. */
    private final Map<Class<?>, List<Method>> annotatedTypes = new LinkedHashMap<>();
    private final List<String> problems = new ArrayList<>();
    private TollgateConfig config;
    private Settings settings;
    private StoreCluster cluster;
    /** The application's metrics, telemetry and events, made once its beans can be ({@link #observe}). */
    private final LateObserver observers = new LateObserver();
    private volatile Tollgate tollgate;

    /**
     * Records a class that carries {@link RateLimited} on itself or on a method.
     *
     * @param methods the class's methods as the container sees them (its own and those it inherits)
     */
    public void collect(Class<?> type, List<Method> methods) {
        annotatedTypes.put(type, methods);
        RateLimited onType = type.getAnnotation(RateLimited.class);
        if (onType != null) {
            record(onType, type, null, type.getName());
        }
        for (Method method : methods) {
            RateLimited onMethod = method.getAnnotation(RateLimited.class);
            if (onMethod != null) {
                record(onMethod, type, method, type.getName() + "." + method.getName());
            }
            try {
                Binding.keyParameter(method);
            } catch (IllegalStateException e) {
                problems.add(e.getMessage());
            }
        }
    }

    private void record(RateLimited annotation, Class<?> type, Method method, String element) {
        for (String name : Binding.ruleNames(annotation, type, method)) {
            annotations.computeIfAbsent(name, RuleDefaults::new)
                    .merge(element, annotation.rate(), annotation.burst(), annotation.key(), annotation.cost());
        }
    }

    /**
     * Reads the configuration and checks it against every annotated method.
     *
     * @return what is wrong, one message each (naming the property and the value); empty if nothing is
     */
    public List<String> configure() {
        try {
            settings = new MicroProfileSettings(ConfigProvider.getConfig(classLoader()));
            config = ConfigReader.read(settings, annotations.values());
        } catch (InvalidConfigurationException e) {
            return List.of(e.getMessage());
        }
        List<String> found = new ArrayList<>(problems);
        annotatedTypes.forEach((type, methods) -> {
            for (Method method : methods) {
                try {
                    Binding.of(type, method, config);
                } catch (IllegalStateException e) {
                    found.add(e.getMessage());
                }
            }
        });
        return found;
    }

    /**
     * Opens the store and starts limiting, once the application's beans are known; does nothing if the
     * configuration was found wrong.
     *
     * @param httpRequests where the HTTP request being served comes from when JAX-RS did not hand it over
     * @return what kept it from starting, one exception each (the cause where there is one); empty if it started
     */
    public List<Exception> start(BeanManager beans, HttpRequests httpRequests) {
        if (config == null) {
            return List.of();
        }
        List<Exception> failures = new ArrayList<>();
        Map<String, RateLimitKeyResolver> resolvers = new HashMap<>();
        for (RuleConfig rule : config.rules().values()) {
            for (String className : rule.key().resolverClasses()) {
                try {
                    resolvers.put(className, resolver(className, beans));
                } catch (RuntimeException e) {
                    failures.add(new IllegalStateException("tollgate.rules." + rule.name() + ".key = 'resolver:" + className
                            + "': " + e.getMessage()));
                }
            }
        }
        if (!config.enabled()) {
            tollgate = Tollgate.disabled(config);
            annotatedTypes.clear();
            LOG.info("Tollgate is disabled (tollgate.enabled=false): its " + config.rules().size() + " rule(s) were read and "
                    + "checked, no store is opened, and every call passes uncharged");
            return failures;
        }
        BucketStore store = null;
        HazelcastBackend backend = null;
        try {
            backend = hazelcast(config, beans);
            BatchingBucketStore decider = backend != null ? backend.store() : inMemory(config);
            store = stacked(config, decider);
            Bans bans = bans(config, decider, backend);
            SharedRules shared = backend != null ? backend.sharedRules() : SharedRules.local();
            cluster = backend != null ? backend.cluster() : StoreCluster.ALONE;
            warmUp(store, config);
            Tollgate running = new Tollgate(config, store, bans, cluster, resolvers, observers, httpRequests,
                    new ContextRequestRecords(config, httpRequests, beans));
            annotatedTypes.forEach((type, methods) -> {
                for (Method method : methods) {
                    running.binding(type, method); // resolved now, not on first call
                }
            });
            LiveRules live = new LiveRules(config, new RuleEditor(settings, annotations.values(), config), store, shared,
                    ruleChanges(beans), new Callers(beans)).start();
            running.liveRules(live);
            if (backend != null) {
                backend.onCatchUp(live::catchUp); // changes, resets and bans this member may have missed
            }
            tollgate = running;
            annotatedTypes.clear(); // needed no longer
        } catch (Exception | LinkageError e) {
            if (store != null) {
                store.close();
            } else if (backend != null) {
                backend.close();
            }
            failures.add(new IllegalStateException("Tollgate could not open its store (tollgate.store = "
                    + config.storeType().name().toLowerCase() + "): " + describe(e), e));
            return failures;
        } finally {
            HazelcastThreadLocals.clear(); // the server may deploy on a long-lived thread of its own
        }
        LOG.info("Tollgate is limiting with " + config.rules().size() + " rule(s): " + config.rules().values());
        return failures;
    }

    /**
     * Makes the application's observers of Tollgate's decisions: its metrics (MicroProfile Metrics), its instruments and
     * spans (OpenTelemetry) and the events it observes. Right after {@link #start} on CDI Full; on Quarkus once the
     * application has started, when its OpenTelemetry has been made. Does nothing unless Tollgate is running.
     */
    public void observe(BeanManager beans) {
        if (tollgate == null || !config.enabled()) {
            return;
        }
        observers.set(DecisionObserver.both(DecisionObserver.both(
                bound(config.metrics(), METRICS_BINDING, METRICS_API, "MicroProfile Metrics", beans, cluster),
                bound(config.telemetry(), TELEMETRY_BINDING, TELEMETRY_API, "OpenTelemetry", beans, cluster)), events(beans)));
    }

    /** Closes the store, if it is open. */
    public void stop() {
        Tollgate running = tollgate;
        tollgate = null;
        if (running != null) {
            try {
                running.close();
            } finally {
                HazelcastThreadLocals.clear(); // and undeploy on another
            }
        }
    }

    @Override
    public Tollgate tollgate() {
        Tollgate running = tollgate;
        if (running == null) {
            throw new IllegalStateException("Tollgate is not running in this application (deployment failed or stopped)");
        }
        return running;
    }

    @Override
    public boolean settlesByOutcome() {
        Tollgate running = tollgate;
        return running != null && running.settlesByOutcome();
    }

    /**
     * @return Tollgate's class {@code name}, if {@code api} (the server feature it builds on) is present to the
     *         application
     */
    static Optional<Class<?>> optional(String name, String api) {
        try {
            Class.forName(api, false, classLoader());
            return Optional.of(Class.forName(name, false, ApplicationTollgate.class.getClassLoader()));
        } catch (ClassNotFoundException | LinkageError e) {
            LOG.fine(() -> api + " is not available: " + name + " is left out");
            return Optional.empty();
        }
    }

    /** @return the metrics binding's class, where the application sees MicroProfile Metrics */
    static Optional<Class<?>> metricsBinding() {
        return optional(METRICS_BINDING, METRICS_API);
    }

    /** @return the OpenTelemetry binding's class, where the application sees OpenTelemetry's API */
    static Optional<Class<?>> telemetryBinding() {
        return optional(TELEMETRY_BINDING, TELEMETRY_API);
    }

    /**
     * @return Tollgate's metrics in the application's MicroProfile Metrics registry, or its instruments and span
     *         attributes through OpenTelemetry: the observer the {@code binding} bean makes, where the server offers the
     *         {@code api} (and the property that turns it on is not {@code false})
     */
    private DecisionObserver bound(boolean on, String binding, String api, String what, BeanManager beans, StoreCluster cluster) {
        if (!on) {
            return DecisionObserver.NONE;
        }
        Optional<Class<?>> type = optional(binding, api);
        if (type.isEmpty()) {
            return DecisionObserver.NONE;
        }
        try {
            Instance<?> factory = beans.createInstance().select(type.get());
            if (!factory.isResolvable()) {
                return DecisionObserver.NONE;
            }
            return ((DecisionObserver.Factory) factory.get()).create(config, cluster);
        } catch (RuntimeException | LinkageError e) {
            LOG.log(Level.WARNING, "Tollgate's " + what + " could not be set up; limiting goes on without them", e);
            return DecisionObserver.NONE;
        }
    }

    /** @return the events the application observes ({@code RateLimitDenied}, {@code RateLimitStoreFailed}, {@code RateLimitBanned}, {@code RateLimitReset}, {@code RateLimitBanLifted}) */
    private static DecisionObserver events(BeanManager beans) {
        try {
            return CdiEvents.of(beans);
        } catch (RuntimeException | LinkageError e) {
            LOG.log(Level.WARNING, "Tollgate's events could not be set up; limiting goes on without them", e);
            return DecisionObserver.NONE;
        }
    }

    /** @return what tells the application of each rule change ({@code RateLimitRuleChanged}), if it observes them */
    private static Consumer<RateLimitRuleChanged> ruleChanges(BeanManager beans) {
        try {
            return CdiEvents.ruleChanges(beans);
        } catch (RuntimeException | LinkageError e) {
            LOG.log(Level.WARNING, "Tollgate's rule-change events could not be set up; rules change without them", e);
            return change -> { };
        }
    }

    /** Best effort: a store that is down now is answered by each rule's on-store-failure until it is back. */
    private static void warmUp(BucketStore store, TollgateConfig config) {
        if (config.rules().isEmpty()) {
            return;
        }
        try {
            store.warmUp(config.rules().values().iterator().next().bucket());
        } catch (Exception e) {
            LOG.warning("The rate-limit store is not answering yet (" + describe(e) + "); until it does, each rule "
                    + "answers by its on-store-failure policy");
        }
    }

    private static RateLimitKeyResolver resolver(String className, BeanManager beans) {
        Class<?> type;
        try {
            type = Class.forName(className, true, classLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("no such class", e);
        }
        if (!RateLimitKeyResolver.class.isAssignableFrom(type)) {
            throw new IllegalStateException("the class does not implement " + RateLimitKeyResolver.class.getName());
        }
        Set<Bean<?>> candidates = beans.getBeans(type);
        if (candidates.isEmpty()) {
            throw new IllegalStateException("the class is not a CDI bean; give it a scope such as @ApplicationScoped");
        }
        Bean<?> bean = beans.resolve(candidates);
        return (RateLimitKeyResolver) beans.getReference(bean, type, beans.createCreationalContext(bean));
    }

    /** @return the in-memory store (of one bucket where there are no rules) */
    private static InMemoryBucketStore inMemory(TollgateConfig config) {
        return new InMemoryBucketStore(Clock.SYSTEM, config.rules().isEmpty() ? 1 : config.memoryMaxEntries());
    }

    /** @return the Hazelcast store the configuration asks for; {@code null} for the in-memory one (or no rules) */
    private static HazelcastBackend hazelcast(TollgateConfig config, BeanManager beans) throws Exception {
        if (config.rules().isEmpty() || config.storeType() == StoreType.MEMORY) {
            return null;
        }
        try {
            Class.forName("com.hazelcast.core.HazelcastInstance", false, classLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("com.hazelcast:hazelcast is not on the class path; add it to the application "
                    + "(5.3.8 to 5.7.0), use a server that provides it, or set tollgate.store=memory for a single instance");
        }
        return HazelcastStores.open(config.hazelcast().forApplication(ApplicationName.lookup()), config.storeTimeout(),
                new ApplicationHazelcast(beans));
    }

    /** @return the in-memory store as it is; Hazelcast's under the denial cache and coalescing, as configured */
    private static BucketStore stacked(TollgateConfig config, BatchingBucketStore decider) {
        if (decider instanceof InMemoryBucketStore) {
            return decider;
        }
        return new StoreStack(config.hazelcast().coalescing(), config.denialCache() ? config.denialCacheMaxEntries() : 0)
                .over(decider);
    }

    /**
     * @return the rules' bans: in this JVM for the in-memory store, shared by the cluster for Hazelcast (only where a
     *         rule has a ban: no map, no listener otherwise); denials are counted by the store that decides
     */
    private static Bans bans(TollgateConfig config, BatchingBucketStore decider, HazelcastBackend backend) {
        boolean any = config.rules().values().stream().anyMatch(rule -> rule.ban() != null);
        return backend == null || !any ? Bans.local(decider, config.bansMaxEntries())
                : backend.bans(decider, config.bansMaxEntries());
    }

    static String describe(Throwable e) {
        return e.getMessage() == null ? e.getClass().getName() : e.getMessage();
    }

    static ClassLoader classLoader() {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return context != null ? context : ApplicationTollgate.class.getClassLoader();
    }
}
