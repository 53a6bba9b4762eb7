package io.tollgate.internal.cdi;

import io.tollgate.internal.limiter.ThrottledLog;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.ObserverMethod;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One type of Tollgate's events as the application observes it: fired synchronously only if it has
 * synchronous observers of the type, asynchronously only if it has asynchronous ones (both found once, at
 * deployment). An observer's exception is logged, at most one line per 10 s, and never thrown to the caller.
 */
final class ObservedEvent<T> {

    private static final Logger LOG = Logger.getLogger(ObservedEvent.class.getName());

    private final Class<T> type;
    private final Event<T> event;
    private final boolean sync;
    private final boolean async;
    private final ThrottledLog failures = ThrottledLog.of(LOG, Level.WARNING);

    private ObservedEvent(Class<T> type, Event<T> event, boolean sync, boolean async) {
        this.type = type;
        this.event = event;
        this.sync = sync;
        this.async = async;
    }

    /** @param sample an event of the type, by which the application's observers of it are found */
    static <T> ObservedEvent<T> of(BeanManager beans, Class<T> type, T sample) {
        Set<ObserverMethod<? super T>> observers = beans.resolveObserverMethods(sample);
        boolean async = observers.stream().anyMatch(ObserverMethod::isAsync);
        boolean sync = observers.stream().anyMatch(observer -> !observer.isAsync());
        return new ObservedEvent<>(type, beans.getEvent().select(type), sync, async);
    }

    /** @return whether the application observes the type at all */
    boolean observed() {
        return sync || async;
    }

    /** Notifies the observers of {@code payload}: the synchronous ones on this thread. */
    void fire(T payload) {
        if (async) {
            event.fireAsync(payload).whenComplete((result, failure) -> {
                if (failure != null) {
                    failed("An asynchronous observer", failure);
                }
            });
        }
        if (sync) {
            try {
                event.fire(payload);
            } catch (RuntimeException e) {
                failed("An observer", e);
            }
        }
    }

    private void failed(String observer, Throwable failure) {
        if (failures.due()) {
            failures.write(observer + " of " + type.getSimpleName() + " failed; Tollgate's answer stands", failure);
        }
    }
}
