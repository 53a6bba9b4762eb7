package io.tollgate.internal.hazelcast;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A step that needs the cluster (a map's proxy, a listener, its current entries), taken at deployment and, if the
 * cluster is out of reach then (a client whose cluster is down), taken again every few seconds until it succeeds:
 * an application whose store is away deploys, answers by its rules' {@code on-store-failure}, and joins in once the
 * cluster is back.
 */
final class ClusterAttachment implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ClusterAttachment.class.getName());
    static final long RETRY_SECONDS = 5;

    private final ScheduledExecutorService retries;

    private ClusterAttachment(ScheduledExecutorService retries) {
        this.retries = retries;
    }

    /**
     * Takes {@code step} now; if it fails, says so once at WARNING and takes it again every {@value #RETRY_SECONDS} s,
     * on a thread of its own, until it succeeds or this is closed.
     *
     * @param what what the step reaches, for the log ("the cluster's bans")
     */
    static ClusterAttachment of(String what, Runnable step) {
        try {
            step.run();
            return new ClusterAttachment(null);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, what + " could not be reached (" + e + "); trying again every " + RETRY_SECONDS + " s");
        }
        ClassLoader application = Thread.currentThread().getContextClassLoader();
        ScheduledExecutorService retries = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "tollgate-attach");
            thread.setDaemon(true);
            thread.setContextClassLoader(application);
            return thread;
        });
        retries.scheduleWithFixedDelay(() -> {
            try {
                step.run();
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, what + " still out of reach", e);
                return;
            }
            LOG.info(what + " reached");
            retries.shutdown();
        }, RETRY_SECONDS, RETRY_SECONDS, TimeUnit.SECONDS);
        return new ClusterAttachment(retries);
    }

    /** Stops trying. */
    @Override
    public void close() {
        if (retries != null) {
            retries.shutdownNow();
        }
    }
}
