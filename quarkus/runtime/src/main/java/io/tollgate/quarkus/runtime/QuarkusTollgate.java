package io.tollgate.quarkus.runtime;

import io.quarkus.arc.Arc;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.tollgate.internal.cdi.ApplicationTollgate;
import io.tollgate.internal.cdi.RunningTollgate;
import io.tollgate.internal.runtime.Tollgate;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.inject.Singleton;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Tollgate as a Quarkus application runs it: started with the application (or earlier, by the first of Tollgate's
 * classes that needs it, such as Quarkus REST's set-up of the resource methods), from the classes the build found
 * using {@code @RateLimited}; an invalid configuration fails the start, naming each property and value. Stopped with
 * the application.
 */
@Singleton
public class QuarkusTollgate implements RunningTollgate {

    /** The classes that use {@code @RateLimited}, as the build found them (set by {@link TollgateRecorder}). */
    private static volatile List<String> annotatedClasses = List.of();

    private final ApplicationTollgate application = new ApplicationTollgate();
    private volatile boolean started;

    static void annotatedClasses(List<String> names) {
        annotatedClasses = List.copyOf(names);
    }

    void onStart(@Observes @Priority(1) StartupEvent event) {
        start();
        application.observe(Arc.container().beanManager()); // its OpenTelemetry is made after Quarkus REST's set-up
    }

    void onStop(@Observes ShutdownEvent event) {
        application.stop();
    }

    /** The running Tollgate, as Tollgate's JAX-RS classes look it up. */
    @Produces
    @Singleton
    Tollgate running() {
        return tollgate();
    }

    @Override
    public Tollgate tollgate() {
        if (!started) {
            start();
        }
        return application.tollgate();
    }

    @Override
    public boolean settlesByOutcome() {
        return started && application.settlesByOutcome();
    }

    private synchronized void start() {
        if (started) {
            return;
        }
        started = true;
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        for (Map.Entry<Class<?>, List<Method>> type : types(loader).entrySet()) {
            application.collect(type.getKey(), type.getValue());
        }
        List<String> problems = application.configure();
        if (!problems.isEmpty()) {
            throw new DeploymentException(problems.stream().collect(Collectors.joining("\n  ", "Tollgate's configuration is "
                    + "invalid:\n  ", "")));
        }
        List<Exception> failures = application.start(Arc.container().beanManager(), new VertxHttpRequests());
        if (!failures.isEmpty()) {
            throw new DeploymentException(failures.stream().map(Exception::getMessage)
                    .collect(Collectors.joining("\n  ", "Tollgate could not start:\n  ", "")), failures.get(0).getCause());
        }
    }

    /** @return each annotated class with the methods CDI sees on it: its own and those of its superclasses */
    private static Map<Class<?>, List<Method>> types(ClassLoader loader) {
        Map<Class<?>, List<Method>> types = new LinkedHashMap<>();
        for (String name : annotatedClasses) {
            Class<?> type;
            try {
                type = Class.forName(name, false, loader);
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("Tollgate: the class " + name + " the build found is missing", e);
            }
            List<Method> methods = new ArrayList<>();
            Set<String> signatures = new HashSet<>();
            for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
                for (Method method : c.getDeclaredMethods()) {
                    boolean visible = c == type || !Modifier.isPrivate(method.getModifiers()); // a superclass's private ones are not
                    if (!method.isSynthetic() && visible
                            && signatures.add(method.getName() + Arrays.toString(method.getParameterTypes()))) {
                        methods.add(method);
                    }
                }
            }
            types.put(type, methods);
        }
        return types;
    }
}
