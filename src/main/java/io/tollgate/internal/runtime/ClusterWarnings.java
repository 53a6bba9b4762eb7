package io.tollgate.internal.runtime;

import io.tollgate.internal.config.ClusterSettings;
import io.tollgate.internal.store.StoreCluster;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Says so, at WARNING, while the store's cluster has fewer members than {@code tollgate.cluster.min-members} or
 * {@code tollgate.cluster.quorum}: when the count drops below, then once a minute while it stays there, and at INFO
 * when it is back. Looks every {@value #CHECK_SECONDS} s, on a thread of its own, only where one of them asks for
 * more than one member.
 */
final class ClusterWarnings implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ClusterWarnings.class.getName());
    static final long CHECK_SECONDS = 5;
    static final long REPEAT_SECONDS = 60;

    private final StoreCluster cluster;
    private final ClusterSettings settings;
    private final ScheduledExecutorService timer;
    private int lastMembers = -1;
    private long lastWarnedNanos;

    private ClusterWarnings(StoreCluster cluster, ClusterSettings settings, ScheduledExecutorService timer) {
        this.cluster = cluster;
        this.settings = settings;
        this.timer = timer;
    }

    /** @return the warnings, looking from now on; nothing to look at where one member is enough */
    static ClusterWarnings start(StoreCluster cluster, ClusterSettings settings) {
        return start(cluster, settings, true);
    }

    /** @param look whether to look at all ({@code false}: nothing is started, nothing is ever warned of) */
    static ClusterWarnings start(StoreCluster cluster, ClusterSettings settings, boolean look) {
        if (!look || wanted(settings) <= 1) {
            return new ClusterWarnings(cluster, settings, null);
        }
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "tollgate-cluster-warnings");
            thread.setDaemon(true);
            return thread;
        });
        ClusterWarnings warnings = new ClusterWarnings(cluster, settings, timer);
        timer.scheduleWithFixedDelay(warnings::check, 0, CHECK_SECONDS, TimeUnit.SECONDS);
        return warnings;
    }

    /**
     * @return what the readiness check and the warning say: the count, what is wanted and why, and how members are
     *         looked for
     */
    static String tooFew(int members, ClusterSettings settings, String discovery) {
        boolean quorum = members < settings.quorum();
        return "Tollgate's cluster has " + members + " member(s), fewer than "
                + (quorum ? "tollgate.cluster.quorum = " + settings.quorum() + ": every decision is answered by its rule's "
                        + "on-store-failure policy" : "tollgate.cluster.min-members = " + settings.minMembers()
                        + ": this instance may be limiting alone")
                + "; members are looked for at " + discovery;
    }

    /** @return the fewest members the settings want */
    private static int wanted(ClusterSettings settings) {
        return Math.max(settings.minMembers(), settings.quorum());
    }

    private void check() {
        try {
            int members = cluster.members();
            boolean few = members < wanted(settings);
            long now = System.nanoTime();
            if (few && (members != lastMembers || now - lastWarnedNanos >= TimeUnit.SECONDS.toNanos(REPEAT_SECONDS))) {
                LOG.warning(tooFew(members, settings, cluster.discovery()));
                lastWarnedNanos = now;
            } else if (!few && lastMembers >= 0 && lastMembers < wanted(settings)) {
                LOG.info("Tollgate's cluster has " + members + " member(s) again, as many as it should");
            }
            lastMembers = members;
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "Could not count the members of Tollgate's cluster", e);
        }
    }

    @Override
    public void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
