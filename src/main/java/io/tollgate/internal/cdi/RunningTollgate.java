package io.tollgate.internal.cdi;

import io.tollgate.internal.runtime.Tollgate;

/**
 * Tollgate as this application runs it, as Tollgate's own beans (the interceptor, the injectable API) find it: a
 * bean of this type is what started it, the CDI extension on Payara, Open Liberty and WildFly, a bean of the Quarkus
 * extension on Quarkus.
 */
public interface RunningTollgate {

    /** @return Tollgate as deployed in this application; throws {@link IllegalStateException} while it is not running */
    Tollgate tollgate();

    /** @return whether Tollgate runs here with a rule that keeps its charge or not by the outcome */
    boolean settlesByOutcome();
}
