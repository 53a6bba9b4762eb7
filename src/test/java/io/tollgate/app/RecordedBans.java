package io.tollgate.app;

import io.tollgate.RateLimitBanned;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Observes Tollgate's bans and keeps them for the test to read. */
@ApplicationScoped
public class RecordedBans {

    private final List<RateLimitBanned> bans = new CopyOnWriteArrayList<>();

    void banned(@Observes RateLimitBanned event) {
        bans.add(event);
    }

    /** @return the bans observed, in order */
    public List<RateLimitBanned> bans() {
        return bans;
    }
}
