package io.tollgate.internal.cdi;

import com.hazelcast.core.HazelcastInstance;
import io.tollgate.TollgateHazelcast;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.util.AnnotationLiteral;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The application's own Hazelcast instance: the bean qualified {@link TollgateHazelcast}, or {@code null} if the
 * application has none. Loaded only where Hazelcast is on the class path.
 */
final class ApplicationHazelcast implements Supplier<HazelcastInstance> {

    private final BeanManager beans;

    ApplicationHazelcast(BeanManager beans) {
        this.beans = beans;
    }

    @Override
    public HazelcastInstance get() {
        Set<Bean<?>> candidates = beans.getBeans(HazelcastInstance.class, new AnnotationLiteral<TollgateHazelcast>() { });
        if (candidates.isEmpty()) {
            return null;
        }
        Bean<?> bean = beans.resolve(candidates);
        return (HazelcastInstance) beans.getReference(bean, HazelcastInstance.class, beans.createCreationalContext(bean));
    }
}
