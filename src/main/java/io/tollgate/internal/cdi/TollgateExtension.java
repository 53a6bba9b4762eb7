package io.tollgate.internal.cdi;

import io.tollgate.RateLimitKeyResolver;
import io.tollgate.RateLimitRuleChanged;
import io.tollgate.RateLimited;
import io.tollgate.internal.config.ConfigReader;
import io.tollgate.internal.config.GlobalProperties;
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
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.AfterBeanDiscovery;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.AnnotatedMethod;
import jakarta.enterprise.inject.spi.AnnotatedType;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.BeforeBeanDiscovery;
import jakarta.enterprise.inject.spi.BeforeShutdown;
import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessAnnotatedType;
import jakarta.enterprise.inject.spi.WithAnnotations;
import jakarta.inject.Singleton;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Resolves Tollgate at deployment: collects every {@link RateLimited} use, reads and validates the
 * configuration (an invalid one fails the deployment, naming each property and value), checks that
 * every annotated method's rules exist, and opens the store. Closes it when the application stops.
 */
public class TollgateExtension implements Extension {

    private static final Logger LOG = Logger.getLogger(TollgateExtension.class.getName());
    private static final String READINESS_CHECK = "io.tollgate.internal.health.StoreReadiness";
    private static final String HEALTH_API = "org.eclipse.microprofile.health.HealthCheck";
    private static final String METRICS_BINDING = "io.tollgate.internal.metrics.MetricsBinding";
    private static final String METRICS_API = "org.eclipse.microprofile.metrics.MetricRegistry";
    private static final String TELEMETRY_BINDING = "io.tollgate.internal.telemetry.TelemetryBinding";
    private static final String TELEMETRY_API = "io.opentelemetry.api.OpenTelemetry";
    private static final String SERVLET_REQUESTS = "io.tollgate.internal.servlet.ServletHttpRequests";

    private final Map<String, RuleDefaults> annotations = new LinkedHashMap<>();
    private final List<AnnotatedType<?>> annotatedTypes = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();
    private TollgateConfig config;
    private Settings settings;
    private volatile Tollgate tollgate;

    void registerBeans(@Observes BeforeBeanDiscovery event, BeanManager beans) {
        List<Class<?>> types = new ArrayList<>(List.of(RateLimitInterceptor.class, RequestState.class, DefaultRateLimiter.class,
                DefaultRateLimitAdmin.class, DefaultRateLimitRules.class, RequestEnd.class));
        boolean on = enabled(GlobalProperties.ENABLED.name());
        if (on && enabled(GlobalProperties.METRICS.name())) {
            optional(METRICS_BINDING, METRICS_API).ifPresent(types::add);
        }
        if (on && enabled(GlobalProperties.TELEMETRY.name())) {
            optional(TELEMETRY_BINDING, TELEMETRY_API).ifPresent(types::add);
        }
        for (Class<?> type : types) {
            event.addAnnotatedType(beans.createAnnotatedType(type), TollgateExtension.class.getName() + "." + type.getSimpleName());
        }
    }

    /** Read ahead of the rest of the configuration, which is read once the beans are known; an invalid value fails it then. */
    private static boolean enabled(String property) {
        return !"false".equalsIgnoreCase(ConfigProvider.getConfig(classLoader()).getOptionalValue(property, String.class)
                .map(String::trim).orElse("true"));
    }

    /** @return Tollgate's class {@code name}, if {@code api} (the server feature it builds on) is present */
    private static Optional<Class<?>> optional(String name, String api) {
        try {
            Class.forName(api, false, classLoader());
            return Optional.of(Class.forName(name, false, TollgateExtension.class.getClassLoader()));
        } catch (ClassNotFoundException | LinkageError e) {
            LOG.fine(() -> api + " is not available: " + name + " is left out");
            return Optional.empty();
        }
    }

    <T> void collect(@Observes @WithAnnotations(RateLimited.class) ProcessAnnotatedType<T> event) {
        AnnotatedType<T> type = event.getAnnotatedType();
        Class<T> javaClass = type.getJavaClass();
        if (javaClass == RateLimitInterceptor.class) {
            return;
        }
        annotatedTypes.add(type);
        RateLimited onType = type.getAnnotation(RateLimited.class);
        if (onType != null) {
            record(onType, javaClass, null, javaClass.getName());
        }
        for (AnnotatedMethod<? super T> method : type.getMethods()) {
            RateLimited onMethod = method.getAnnotation(RateLimited.class);
            Method javaMethod = method.getJavaMember();
            if (onMethod != null) {
                record(onMethod, javaClass, javaMethod, javaClass.getName() + "." + javaMethod.getName());
            }
            try {
                Binding.keyParameter(javaMethod);
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

    void readConfiguration(@Observes AfterBeanDiscovery event) {
        // the glue outside this package (the JAX-RS providers) finds the running Tollgate as a bean
        event.<Tollgate>addBean().beanClass(Tollgate.class).types(Tollgate.class, Object.class).scope(Singleton.class)
                .createWith(context -> tollgate());
        addReadinessCheck(event);
        try {
            settings = new MicroProfileSettings(ConfigProvider.getConfig(classLoader()));
            config = ConfigReader.read(settings, annotations.values());
        } catch (InvalidConfigurationException e) {
            event.addDefinitionError(new DeploymentException(e.getMessage()));
            return;
        }
        for (String problem : problems) {
            event.addDefinitionError(new DeploymentException(problem));
        }
        for (AnnotatedType<?> type : annotatedTypes) {
            for (AnnotatedMethod<?> method : type.getMethods()) {
                try {
                    Binding.of(type.getJavaClass(), method.getJavaMember(), config);
                } catch (IllegalStateException e) {
                    event.addDefinitionError(new DeploymentException(e.getMessage()));
                }
            }
        }
    }

    /**
     * Adds the readiness check where the server offers MicroProfile Health (and {@code tollgate.health} is not
     * {@code false}): a bean added here, not a type added before discovery, so that it can live where the server's
     * health support sees it (see {@code StoreReadiness.addTo}).
     */
    private void addReadinessCheck(AfterBeanDiscovery event) {
        if (!enabled(GlobalProperties.ENABLED.name()) || !enabled(GlobalProperties.HEALTH.name())) {
            return;
        }
        Optional<Class<?>> check = optional(READINESS_CHECK, HEALTH_API);
        if (check.isEmpty()) {
            return;
        }
        Supplier<Tollgate> running = this::tollgate;
        try {
            check.get().getMethod("addTo", AfterBeanDiscovery.class, Supplier.class).invoke(null, event, running);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            LOG.log(Level.WARNING, "Tollgate's readiness check could not be set up; limiting goes on without it", e);
        }
    }

    void start(@Observes AfterDeploymentValidation event, BeanManager beans) {
        if (config == null) {
            return;
        }
        Map<String, RateLimitKeyResolver> resolvers = new HashMap<>();
        for (RuleConfig rule : config.rules().values()) {
            for (String className : rule.key().resolverClasses()) {
                try {
                    resolvers.put(className, resolver(className, beans));
                } catch (RuntimeException e) {
                    event.addDeploymentProblem(new DeploymentException("tollgate.rules." + rule.name() + ".key = 'resolver:"
                            + className + "': " + e.getMessage()));
                }
            }
        }
        if (!config.enabled()) {
            tollgate = Tollgate.disabled(config);
            annotatedTypes.clear();
            LOG.info("Tollgate is disabled (tollgate.enabled=false): its " + config.rules().size() + " rule(s) were read and "
                    + "checked, no store is opened, and every call passes uncharged");
            return;
        }
        BucketStore store = null;
        HazelcastBackend backend = null;
        try {
            backend = hazelcast(config, beans);
            BatchingBucketStore decider = backend != null ? backend.store() : inMemory(config);
            store = stacked(config, decider);
            Bans bans = bans(config, decider, backend);
            SharedRules shared = backend != null ? backend.sharedRules() : SharedRules.local();
            StoreCluster cluster = backend != null ? backend.cluster() : StoreCluster.ALONE;
            warmUp(store, config);
            HttpRequests httpRequests = httpRequests(beans);
            DecisionObserver observer = DecisionObserver.both(DecisionObserver.both(
                    bound(config.metrics(), METRICS_BINDING, METRICS_API, "MicroProfile Metrics", beans, cluster),
                    bound(config.telemetry(), TELEMETRY_BINDING, TELEMETRY_API, "OpenTelemetry", beans, cluster)), events(beans));
            Tollgate running = new Tollgate(config, store, bans, cluster, resolvers, observer, httpRequests,
                    new ContextRequestRecords(config, httpRequests, beans));
            for (AnnotatedType<?> type : annotatedTypes) {
                for (AnnotatedMethod<?> method : type.getMethods()) {
                    running.binding(type.getJavaClass(), method.getJavaMember()); // resolved now, not on first call
                }
            }
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
            event.addDeploymentProblem(new DeploymentException("Tollgate could not open its store (tollgate.store = "
                    + config.storeType().name().toLowerCase() + "): " + describe(e), e));
            return;
        } finally {
            HazelcastThreadLocals.clear(); // the server may deploy on a long-lived thread of its own
        }
        LOG.info("Tollgate is limiting with " + config.rules().size() + " rule(s): " + config.rules().values());
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

    /**
     * @return the HTTP requests of this application as the Servlet API gives them (CDI's built-in
     *         {@code HttpServletRequest} bean), where the application sees that API; else none (then only JAX-RS
     *         hands requests over, and the client's address comes from the JAX-RS runtime)
     */
    private static HttpRequests httpRequests(BeanManager beans) {
        if (optional(SERVLET_REQUESTS, "jakarta.servlet.http.HttpServletRequest").isEmpty()) {
            LOG.fine("The Servlet API is not visible to the application: requests are known to Tollgate through JAX-RS only");
            return HttpRequests.NONE;
        }
        try {
            Object requests = Class.forName(SERVLET_REQUESTS, true, TollgateExtension.class.getClassLoader())
                    .getMethod("create", BeanManager.class).invoke(null, beans);
            return requests == null ? HttpRequests.NONE : (HttpRequests) requests;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            LOG.log(Level.FINE, "The Servlet API's request is not available to Tollgate", e);
            return HttpRequests.NONE;
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

    private static String describe(Throwable e) {
        return e.getMessage() == null ? e.getClass().getName() : e.getMessage();
    }

    void stop(@Observes BeforeShutdown event) {
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

    /** @return Tollgate as deployed in this application */
    public Tollgate tollgate() {
        Tollgate running = tollgate;
        if (running == null) {
            throw new IllegalStateException("Tollgate is not running in this application (deployment failed or stopped)");
        }
        return running;
    }

    /** @return whether Tollgate runs here with a rule that keeps its charge or not by the outcome */
    boolean settlesByOutcome() {
        Tollgate running = tollgate;
        return running != null && running.settlesByOutcome();
    }

    private static ClassLoader classLoader() {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return context != null ? context : TollgateExtension.class.getClassLoader();
    }
}
