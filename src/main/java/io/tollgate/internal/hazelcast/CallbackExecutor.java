package io.tollgate.internal.hazelcast;

import com.hazelcast.core.HazelcastInstance;
import java.lang.reflect.Method;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Hazelcast completes asynchronous calls through its default executor, which is the common
 * fork-join pool, unless that pool has a parallelism of 1 (a machine or container with one or two
 * CPUs): then it starts a new thread per callback. From Hazelcast 5.6 every {@code submitToKey}
 * goes through it, which costs a tenfold drop in decisions per second there. On such machines,
 * for the instances Tollgate starts itself, this gives Hazelcast a small shared pool instead.
 */
final class CallbackExecutor {

    private static final Logger LOG = Logger.getLogger(CallbackExecutor.class.getName());
    private static final int THREADS = 2;
    private static volatile boolean applied;

    private CallbackExecutor() {
    }

    static synchronized void avoidThreadPerCallback() {
        if (applied || ForkJoinPool.getCommonPoolParallelism() > 1) {
            return;
        }
        try {
            Class<?> util = Class.forName("com.hazelcast.internal.util.ConcurrencyUtil", true,
                    HazelcastInstance.class.getClassLoader());
            Method set = util.getMethod("setDefaultAsyncExecutor", Executor.class);
            set.invoke(null, new ForkJoinPool(THREADS));
            applied = true;
            LOG.info("The common fork-join pool has a parallelism of 1 here; Hazelcast's callbacks run on a pool of "
                    + THREADS + " threads instead of a new thread each");
        } catch (NoSuchMethodException | ClassNotFoundException e) {
            applied = true; // a Hazelcast without the setting: nothing to do
        } catch (ReflectiveOperationException | RuntimeException e) {
            applied = true;
            LOG.log(Level.FINE, "Could not set Hazelcast's callback executor", e);
        }
    }
}
