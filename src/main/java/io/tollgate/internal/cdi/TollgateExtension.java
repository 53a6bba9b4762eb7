package io.tollgate.internal.cdi;

import io.tollgate.RateLimited;
import io.tollgate.internal.config.GlobalProperties;
import io.tollgate.internal.request.HttpRequests;
import io.tollgate.internal.runtime.Tollgate;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterBeanDiscovery;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.AnnotatedMethod;
import jakarta.enterprise.inject.spi.AnnotatedType;
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
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Starts Tollgate on a CDI Full container (Payara, Open Liberty, WildFly): adds Tollgate's beans, hands every
 * {@link RateLimited} use to {@link ApplicationTollgate}, fails the deployment with each problem its configuration has
 * (naming the property and value), and starts it once the deployment is valid. Closes it when the application stops.
 */
public class TollgateExtension implements Extension, RunningTollgate {

    private static final Logger LOG = Logger.getLogger(TollgateExtension.class.getName());
    private static final String READINESS_CHECK = "io.tollgate.internal.health.StoreReadiness";
    private static final String HEALTH_API = "org.eclipse.microprofile.health.HealthCheck";
    private static final String SERVLET_REQUESTS = "io.tollgate.internal.servlet.ServletHttpRequests";

    private final ApplicationTollgate application = new ApplicationTollgate();

    void registerBeans(@Observes BeforeBeanDiscovery event, BeanManager beans) {
        List<Class<?>> types = new ArrayList<>(List.of(RateLimitInterceptor.class, RequestState.class, DefaultRateLimiter.class,
                DefaultRateLimitAdmin.class, DefaultRateLimitRules.class, RequestEnd.class));
        boolean on = enabled(GlobalProperties.ENABLED.name());
        if (on && enabled(GlobalProperties.METRICS.name())) {
            ApplicationTollgate.metricsBinding().ifPresent(types::add);
        }
        if (on && enabled(GlobalProperties.TELEMETRY.name())) {
            ApplicationTollgate.telemetryBinding().ifPresent(types::add);
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

    <T> void collect(@Observes @WithAnnotations(RateLimited.class) ProcessAnnotatedType<T> event) {
        AnnotatedType<T> type = event.getAnnotatedType();
        if (type.getJavaClass() == RateLimitInterceptor.class) {
            return;
        }
        List<Method> methods = new ArrayList<>();
        for (AnnotatedMethod<? super T> method : type.getMethods()) {
            methods.add(method.getJavaMember());
        }
        application.collect(type.getJavaClass(), methods);
    }

    void readConfiguration(@Observes AfterBeanDiscovery event) {
        // the glue outside this package (the JAX-RS providers) finds the running Tollgate as a bean
        event.<Tollgate>addBean().beanClass(Tollgate.class).types(Tollgate.class, Object.class).scope(Singleton.class)
                .createWith(context -> tollgate());
        addReadinessCheck(event);
        for (String problem : application.configure()) {
            event.addDefinitionError(new DeploymentException(problem));
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
        Optional<Class<?>> check = ApplicationTollgate.optional(READINESS_CHECK, HEALTH_API);
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
        for (Exception failure : application.start(beans, httpRequests(beans))) {
            event.addDeploymentProblem(new DeploymentException(failure.getMessage(), failure.getCause()));
        }
        application.observe(beans);
    }

    /**
     * @return the HTTP requests of this application as the Servlet API gives them (CDI's built-in
     *         {@code HttpServletRequest} bean), where the application sees that API; else none (then only JAX-RS
     *         hands requests over, and the client's address comes from the JAX-RS runtime)
     */
    private static HttpRequests httpRequests(BeanManager beans) {
        if (ApplicationTollgate.optional(SERVLET_REQUESTS, "jakarta.servlet.http.HttpServletRequest").isEmpty()) {
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

    void stop(@Observes BeforeShutdown event) {
        application.stop();
    }

    @Override
    public Tollgate tollgate() {
        return application.tollgate();
    }

    @Override
    public boolean settlesByOutcome() {
        return application.settlesByOutcome();
    }

    private static ClassLoader classLoader() {
        return ApplicationTollgate.classLoader();
    }
}
