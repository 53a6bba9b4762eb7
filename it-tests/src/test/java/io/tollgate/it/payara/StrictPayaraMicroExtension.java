package io.tollgate.it.payara;

import org.jboss.arquillian.core.spi.LoadableExtension;

/** Swaps in {@link StrictPayaraMicroContainer} when the Payara Micro adapter is on the classpath (payara execution only). */
public class StrictPayaraMicroExtension implements LoadableExtension {

    @Override
    public void register(ExtensionBuilder builder) {
        try {
            Class.forName("fish.payara.arquillian.container.payara.managed.PayaraMicroDeployableContainer", false,
                    getClass().getClassLoader());
        } catch (ClassNotFoundException notPayara) {
            return;
        }
        StrictPayaraMicroRegistrar.register(builder);
    }
}
