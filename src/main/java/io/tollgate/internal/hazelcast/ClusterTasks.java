package io.tollgate.internal.hazelcast;

import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
        everyMillis(TimeUnit.SECONDS.toMillis(seconds), task);
    }

    /** @return the repetition of {@code task} every {@code millis} from now on, to cancel; {@code null} after {@link #close} */
    Future<?> everyMillis(long millis, Runnable task) {
        try {
            return executor.scheduleWithFixedDelay(guarded(task), millis, millis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            LOG.log(Level.FINE, "Tollgate has stopped; a cluster task is left out", e);
            return null;
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
