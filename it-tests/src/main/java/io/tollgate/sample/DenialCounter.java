package io.tollgate.sample;

import io.tollgate.RateLimitDenied;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Observes Tollgate's denials, as an application that alerts or audits would: counts them per rule
 * (shadow rules' would-be denials apart) and keeps each rule's latest. Synchronous and quick: it runs on
 * the request's thread before the 429 is sent.
 */
@ApplicationScoped
public class DenialCounter {

    private final Map<String, RuleDenials> rules = new ConcurrentHashMap<>();

    void denied(@Observes RateLimitDenied event) {
        rules.computeIfAbsent(event.rule(), rule -> new RuleDenials()).add(event);
    }

    /** @return what {@code rule} denied so far; nothing if it denied nothing */
    public RuleDenials of(String rule) {
        return rules.getOrDefault(rule, new RuleDenials());
    }

    /** The denials of one rule. */
    public static final class RuleDenials {
        private long denied;
        private long shadowDenied;
        private RateLimitDenied latest;

        synchronized void add(RateLimitDenied event) {
            if (event.shadow()) {
                shadowDenied++;
            } else {
                denied++;
            }
            latest = event;
        }

        public synchronized long denied() {
            return denied;
        }

        public synchronized long shadowDenied() {
            return shadowDenied;
        }

        /** @return the latest denial, or {@code null} */
        public synchronized RateLimitDenied latest() {
            return latest;
        }
    }
}
