package io.tollgate.it.quarkus;

import org.jboss.arquillian.container.spi.client.container.DeployableContainer;
import org.jboss.arquillian.core.spi.LoadableExtension;

/** Registers {@link QuarkusProcessContainer} for the Quarkus run of the suite ({@code it.server=quarkus}) only. */
public class QuarkusExtension implements LoadableExtension {

    @Override
    public void register(ExtensionBuilder builder) {
        if ("quarkus".equals(System.getProperty("it.server"))) {
            builder.service(DeployableContainer.class, QuarkusProcessContainer.class);
        }
    }
}
