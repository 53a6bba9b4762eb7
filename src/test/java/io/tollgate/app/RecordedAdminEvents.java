package io.tollgate.app;

import io.tollgate.RateLimitBanLifted;
import io.tollgate.RateLimitReset;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Observes the operators' resets and lifted bans and keeps them for the test to read. */
@ApplicationScoped
public class RecordedAdminEvents {

    private final List<RateLimitReset> resets = new CopyOnWriteArrayList<>();
    private final List<RateLimitBanLifted> lifts = new CopyOnWriteArrayList<>();

    void reset(@Observes RateLimitReset event) {
        resets.add(event);
    }

    void lifted(@Observes RateLimitBanLifted event) {
        lifts.add(event);
    }

    /** @return the resets observed, in order */
    public List<RateLimitReset> resets() {
        return resets;
    }

    /** @return the lifted bans observed, in order */
    public List<RateLimitBanLifted> lifts() {
        return lifts;
    }
}
