package io.tollgate.internal.health;

import io.tollgate.internal.runtime.Tollgate;
import jakarta.enterprise.context.spi.CreationalContext;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.InjectionPoint;
import jakarta.inject.Singleton;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;
import java.util.Set;
import java.util.function.Supplier;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.Readiness;

/**
 * The readiness check as a bean ({@code @Readiness @Singleton HealthCheck}) whose bean class is {@link Object}, a
 * class of the JDK's boot loader: Weld puts a bean an extension adds into the bean archive of its bean class, and
 * the archive of the boot loader's classes is one every archive of the application sees, WildFly's health subsystem's
 * included. The archive of a class of Tollgate's jar, which is no bean archive, is not visible there.
 */
final class ReadinessBean implements Bean<HealthCheck> {

    private final Supplier<Tollgate> running;

    ReadinessBean(Supplier<Tollgate> running) {
        this.running = running;
    }

    @Override
    public Class<?> getBeanClass() {
        return Object.class;
    }

    @Override
    public Set<InjectionPoint> getInjectionPoints() {
        return Set.of();
    }

    @Override
    public HealthCheck create(CreationalContext<HealthCheck> context) {
        return new StoreReadiness(running);
    }

    @Override
    public void destroy(HealthCheck instance, CreationalContext<HealthCheck> context) {
        context.release();
    }

    @Override
    public Set<Type> getTypes() {
        return Set.of(HealthCheck.class, Object.class);
    }

    @Override
    public Set<Annotation> getQualifiers() {
        return Set.of(Readiness.Literal.INSTANCE, Any.Literal.INSTANCE);
    }

    @Override
    public Class<? extends Annotation> getScope() {
        return Singleton.class;
    }

    @Override
    public String getName() {
        return null;
    }

    @Override
    public Set<Class<? extends Annotation>> getStereotypes() {
        return Set.of();
    }

    @Override
    public boolean isAlternative() {
        return false;
    }

    @Override
    public String toString() {
        return "Tollgate's readiness check";
    }
}
