package io.tollgate.internal.hazelcast;

import com.hazelcast.core.HazelcastInstance;
import java.lang.reflect.Method;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Hazelcast completes asynchronous calls through its default executor, which is the common
 * fork-join pool, unless that pool has a parallelism of 1 (a machine or container with one or two
 * CPUs): then it starts a new thread per callback. From Hazelcast 5.6 every {@code submitToKey}
 * goes through it, which costs a tenfold drop in decisions per second there. On such machines,
 * while an instance Tollgate started itself runs, this gives Hazelcast a small pool instead; closing
 * puts Hazelcast's previous executor back and stops the pool, so no thread of it outlives the
 * application (a live thread would keep the application's class loader after an undeployment).
 */
final class CallbackExecutor implements Runnable {

    private static final Logger LOG = Logger.getLogger(CallbackExecutor.class.getName());
    private static final int THREADS = 2;

    private final Method set;
    private final Executor previous;
    private final ExecutorService pool;

    private CallbackExecutor(Method set, Executor previous, ExecutorService pool) {
        this.set = set;
        this.previous = previous;
        this.pool = pool;
    }

    /**
     * Installs the pool where the common pool has a parallelism of 1 and Hazelcast has the setting.
     *
     * @return what undoes it when run, once the instance is shut down; does nothing if nothing was installed
     */
    static Runnable avoidThreadPerCallback() {
        return avoidThreadPerCallback(ForkJoinPool.getCommonPoolParallelism());
    }

    /** As {@link #avoidThreadPerCallback()} where the common pool has a parallelism of {@code commonParallelism}. */
    static synchronized Runnable avoidThreadPerCallback(int commonParallelism) {
        if (commonParallelism > 1) {
            return () -> { };
        }
        try {
            Class<?> util = Class.forName("com.hazelcast.internal.util.ConcurrencyUtil", true,
                    HazelcastInstance.class.getClassLoader());
            Method set = util.getMethod("setDefaultAsyncExecutor", Executor.class);
            Executor previous = (Executor) util.getMethod("getDefaultAsyncExecutor").invoke(null);
            ForkJoinPool pool = new ForkJoinPool(THREADS);
            set.invoke(null, pool);
            LOG.info("The common fork-join pool has a parallelism of 1 here; Hazelcast's callbacks run on a pool of "
                    + THREADS + " threads instead of a new thread each");
            return new CallbackExecutor(set, previous, pool);
        } catch (NoSuchMethodException | ClassNotFoundException e) {
            return () -> { }; // a Hazelcast without the setting: nothing to do
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.log(Level.FINE, "Could not set Hazelcast's callback executor", e);
            return () -> { };
        }
    }

    /** Puts Hazelcast's previous executor back and stops the pool. */
    @Override
    public void run() {
        synchronized (CallbackExecutor.class) {
            try {
                set.invoke(null, previous);
            } catch (ReflectiveOperationException | RuntimeException e) {
                LOG.log(Level.FINE, "Could not restore Hazelcast's callback executor", e);
            }
        }
        pool.shutdown();
    }
}
