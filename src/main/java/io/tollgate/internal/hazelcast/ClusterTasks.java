package io.tollgate.internal.hazelcast;

import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The one thread of a Tollgate instance that works with its cluster off the request path: counting, advertising,
 * catching up after missed events, starting a new instance when Tollgate's own died. Tasks run one at a time, with
 * the application's class loader; none runs after {@link #close}.
 */
final class ClusterTasks implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ClusterTasks.class.getName());

    private final ScheduledExecutorService executor;

    ClusterTasks() {
        ClassLoader application = Thread.currentThread().getContextClassLoader();
        executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "tollgate-cluster");
            thread.setDaemon(true);
            thread.setContextClassLoader(application);
            return thread;
        });
    }

    /** Runs {@code task} soon. */
    void execute(Runnable task) {
        after(0, TimeUnit.MILLISECONDS, task);
    }

    /** Runs {@code task} after {@code delay}. */
    void after(long delay, TimeUnit unit, Runnable task) {
        try {
            executor.schedule(guarded(task), delay, unit);
        } catch (RejectedExecutionException e) {
            LOG.log(Level.FINE, "Tollgate has stopped; a cluster task is left out", e);
        }
    }

    /** Runs {@code task} every {@code seconds} from now on. */
    void every(long seconds, Runnable task) {
        try {
            executor.scheduleWithFixedDelay(guarded(task), seconds, seconds, TimeUnit.SECONDS);
        } catch (RejectedExecutionException e) {
            LOG.log(Level.FINE, "Tollgate has stopped; a cluster task is left out", e);
        }
    }

    private static Runnable guarded(Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException | LinkageError e) {
                LOG.log(Level.FINE, "A cluster task of Tollgate's failed", e);
            }
        };
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
