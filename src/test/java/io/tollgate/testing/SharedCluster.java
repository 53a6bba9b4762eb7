package io.tollgate.testing;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Hands tests one 3-member {@link HazelcastTestCluster}, started on first use and shut down when
 * the whole test run ends. Tests that kill members start their own cluster instead.
 */
public final class SharedCluster implements ParameterResolver {

    private static final int SIZE = 3;

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == HazelcastTestCluster.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
                .getOrComputeIfAbsent(SharedCluster.class, k -> new Resource(HazelcastTestCluster.start(SIZE)), Resource.class)
                .cluster;
    }

    private static final class Resource implements ExtensionContext.Store.CloseableResource, AutoCloseable {
        final HazelcastTestCluster cluster;

        Resource(HazelcastTestCluster cluster) {
            this.cluster = cluster;
        }

        @Override
        public void close() {
            cluster.close();
        }
    }
}
