package io.tollgate.sample;

import io.tollgate.RateLimitDenied;
import io.tollgate.RateLimitStoreFailed;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Observes Tollgate's denials and store failures, as an application that alerts or audits would: counts them
 * per rule (shadow rules' would-be denials apart) and keeps each rule's latest. Synchronous and quick: it runs
 * on the request's thread before the answer is sent.
 */
@ApplicationScoped
public class DenialCounter {

    private final Map<String, RuleDenials> rules = new ConcurrentHashMap<>();

    void denied(@Observes RateLimitDenied event) {
        rules.computeIfAbsent(event.rule(), rule -> new RuleDenials()).add(event);
    }

    void storeFailed(@Observes RateLimitStoreFailed event) {
        rules.computeIfAbsent(event.rule(), rule -> new RuleDenials()).add(event);
    }

    /** @return what {@code rule} denied so far; nothing if it denied nothing */
    public RuleDenials of(String rule) {
        return rules.getOrDefault(rule, new RuleDenials());
    }

    /** The denials and store failures of one rule. */
    public static final class RuleDenials {
        private long denied;
        private long shadowDenied;
        private long storeFailures;
        private RateLimitDenied latest;
        private String latestThread;
        private RateLimitStoreFailed latestStoreFailure;

        synchronized void add(RateLimitDenied event) {
            if (event.shadow()) {
                shadowDenied++;
            } else {
                denied++;
            }
            latest = event;
            latestThread = Thread.currentThread().getName();
        }

        synchronized void add(RateLimitStoreFailed event) {
            storeFailures++;
            latestStoreFailure = event;
        }

        public synchronized long denied() {
            return denied;
        }

        public synchronized long shadowDenied() {
            return shadowDenied;
        }

        public synchronized long storeFailures() {
            return storeFailures;
        }

        /** @return the latest denial, or {@code null} */
        public synchronized RateLimitDenied latest() {
            return latest;
        }

        /** @return the name of the thread the latest denial was decided on (where its event is fired), or {@code null} */
        public synchronized String latestThread() {
            return latestThread;
        }

        /** @return the latest store failure, or {@code null} */
        public synchronized RateLimitStoreFailed latestStoreFailure() {
            return latestStoreFailure;
        }
    }
}
