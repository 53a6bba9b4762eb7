package io.tollgate.app;

import io.tollgate.RateLimitDenied;
import io.tollgate.RateLimitStoreFailed;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.ObservesAsync;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;

/** Observes Tollgate's events, synchronously and asynchronously, and keeps them for the test to read. */
@ApplicationScoped
public class RecordedEvents {

    private final List<RateLimitDenied> denials = new CopyOnWriteArrayList<>();
    private final BlockingQueue<RateLimitDenied> asyncDenials = new LinkedBlockingQueue<>();
    private final List<RateLimitStoreFailed> storeFailures = new CopyOnWriteArrayList<>();

    void denied(@Observes RateLimitDenied event) {
        denials.add(event);
    }

    void deniedAsync(@ObservesAsync RateLimitDenied event) {
        asyncDenials.add(event);
    }

    void storeFailed(@Observes RateLimitStoreFailed event) {
        storeFailures.add(event);
    }

    /** @return the denials observed synchronously, in order */
    public List<RateLimitDenied> denials() {
        return denials;
    }

    /** @return the denials observed asynchronously, as they arrive */
    public BlockingQueue<RateLimitDenied> asyncDenials() {
        return asyncDenials;
    }

    /** @return the store failures observed synchronously, in order */
    public List<RateLimitStoreFailed> storeFailures() {
        return storeFailures;
    }
}
