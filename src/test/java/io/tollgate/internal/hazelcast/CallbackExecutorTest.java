package io.tollgate.internal.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.internal.util.ConcurrencyUtil;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The pool Tollgate gives Hazelcast's callbacks where the common pool has a parallelism of 1 lives
 * only as long as the instance: undone, Hazelcast's previous executor is back and no thread of the
 * pool stays (a live one would keep an undeployed application's class loader).
 */
class CallbackExecutorTest {

    @Test
    void aParallelismOf1GetsAPoolThatIsStoppedAndReplacedByThePreviousExecutorWhenUndone() throws Exception {
        Executor previous = ConcurrencyUtil.getDefaultAsyncExecutor();
        Runnable undo = CallbackExecutor.avoidThreadPerCallback(1);
        Executor installed = ConcurrencyUtil.getDefaultAsyncExecutor();
        assertThat(installed).isInstanceOf(ForkJoinPool.class).isNotSameAs(previous);
        String thread = CompletableFuture.supplyAsync(() -> Thread.currentThread().getName(), installed).get(10, TimeUnit.SECONDS);
        assertThat(thread).as("a callback runs on the pool").contains("ForkJoinPool-");

        undo.run();

        assertThat(ConcurrencyUtil.getDefaultAsyncExecutor()).isSameAs(previous);
        ForkJoinPool pool = (ForkJoinPool) installed;
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).as("the pool's threads have ended").isTrue();
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().equals(thread) && t.isAlive());
    }

    @Test
    void aLargerCommonPoolIsLeftToHazelcast() {
        Executor previous = ConcurrencyUtil.getDefaultAsyncExecutor();
        Runnable undo = CallbackExecutor.avoidThreadPerCallback(2);
        assertThat(ConcurrencyUtil.getDefaultAsyncExecutor()).isSameAs(previous);
        undo.run();
        assertThat(ConcurrencyUtil.getDefaultAsyncExecutor()).isSameAs(previous);
    }
}
