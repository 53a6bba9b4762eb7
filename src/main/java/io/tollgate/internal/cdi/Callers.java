package io.tollgate.internal.cdi;

import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.BeanManager;
import java.security.Principal;
import java.util.function.Supplier;

/**
 * The name of the caller the container authenticated for the current call (the built-in {@code Principal} bean of
 * Jakarta EE), for the record of who changed a rule; {@code null} where the application has no such bean, or the
 * call has no caller.
 */
final class Callers implements Supplier<String> {

    private final BeanManager beans;

    Callers(BeanManager beans) {
        this.beans = beans;
    }

    @Override
    public String get() {
        try {
            Instance<Principal> principal = beans.createInstance().select(Principal.class);
            if (!principal.isResolvable()) {
                return null;
            }
            Principal caller = principal.get();
            return caller == null ? null : caller.getName();
        } catch (RuntimeException e) { // no context to read it in: no caller to name
            return null;
        }
    }
}
