package io.tollgate.it.payara;

import fish.payara.arquillian.container.payara.managed.PayaraMicroDeployableContainer;
import org.jboss.arquillian.container.spi.client.container.DeployableContainer;
import org.jboss.arquillian.core.spi.LoadableExtension.ExtensionBuilder;

final class StrictPayaraMicroRegistrar {
    private StrictPayaraMicroRegistrar() {
    }

    static void register(ExtensionBuilder builder) {
        builder.override(DeployableContainer.class, PayaraMicroDeployableContainer.class,
                StrictPayaraMicroContainer.class);
    }
}
