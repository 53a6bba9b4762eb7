package io.tollgate.app;

import io.tollgate.RateLimitRuleChanged;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Observes Tollgate's rule changes and keeps them for the test to read. */
@ApplicationScoped
public class RecordedRuleChanges {

    private final List<RateLimitRuleChanged> changes = new CopyOnWriteArrayList<>();

    void changed(@Observes RateLimitRuleChanged event) {
        changes.add(event);
    }

    /** @return the changes observed, in order */
    public List<RateLimitRuleChanged> changes() {
        return changes;
    }
}
