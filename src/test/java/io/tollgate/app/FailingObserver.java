package io.tollgate.app;

import io.tollgate.RateLimitDenied;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.ObservesAsync;

/** An observer of denials that always throws, synchronously and asynchronously. */
@ApplicationScoped
public class FailingObserver {

    void denied(@Observes RateLimitDenied event) {
        throw new IllegalStateException("the audit sink is down");
    }

    void deniedAsync(@ObservesAsync RateLimitDenied event) {
        throw new IllegalStateException("the audit sink is down");
    }
}
