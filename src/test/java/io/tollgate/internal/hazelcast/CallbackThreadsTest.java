package io.tollgate.internal.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.instance.BuildInfoProvider;
import com.hazelcast.map.IMap;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.SharedCluster;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * On one or two CPUs (the suite runs with the common pool's parallelism at 1, as there), Hazelcast
 * 5.6 and later start a thread for every answer {@code IMap.submitToKey} returns. Tollgate's store
 * must not, whoever created the instance: here the application's member and the application's client,
 * on every Hazelcast version the suite runs.
 */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
@Isolated
class CallbackThreadsTest {

    private static final int CALLS = 300;
    /** Threads Hazelcast may start meanwhile for its own reasons (pools growing); a thread per call is 300. */
    private static final long SPARE_THREADS = 30;
    private static final TokenBucket ROOMY = TokenBucket.of(Limit.of(1_000_000, 1_000, Duration.ofSeconds(1)));
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final HazelcastTestCluster cluster;

    CallbackThreadsTest(HazelcastTestCluster cluster) {
        this.cluster = cluster;
    }

    @Test
    void theSuiteRunsWithTheCommonPoolOfATwoCpuMachine() {
        assertThat(ForkJoinPool.getCommonPoolParallelism()).as("the common pool's parallelism (set in the surefire argLine)").isEqualTo(1);
    }

    @Test
    void aMemberTheApplicationStartedDecidesWithoutAThreadPerAnswer() throws Exception {
        assertDecidesWithFewThreads(cluster.member(0), "member");
    }

    @Test
    void aClientTheApplicationStartedDecidesWithoutAThreadPerAnswer() throws Exception {
        assertDecidesWithFewThreads(cluster.client(), "client");
    }

    /** What the store avoids, measured the same way: the test would see a thread per answer. */
    @Test
    void submitToKeyStartsAThreadPerAnswerFromHazelcast56() throws Exception {
        IMap<String, long[]> map = cluster.member(0).getMap(BucketMapConfig.DEFAULT_MAP_NAME);
        EntryCalls submitToKey = EntryCalls.submitToKey(map);
        long started = THREADS.getTotalStartedThreadCount();
        for (int i = 0; i < CALLS; i++) {
            Outcome outcome = submitToKey.call("threads-public:" + i, BucketProcessor.create(ROOMY, 1, 0, true, Serialization.WIRE_V1),
                    OutcomeWire::read).get(30, TimeUnit.SECONDS);
            assertThat(outcome.allowed()).isTrue();
        }
        long threads = THREADS.getTotalStartedThreadCount() - started;
        if (atLeast56(BuildInfoProvider.getBuildInfo().getVersion())) {
            assertThat(threads).as("threads started for " + CALLS + " submitToKey answers").isGreaterThanOrEqualTo(CALLS);
        } else {
            assertThat(threads).as("threads started for " + CALLS + " submitToKey answers").isLessThan(SPARE_THREADS);
        }
    }

    private void assertDecidesWithFewThreads(HazelcastInstance instance, String what) throws Exception {
        HazelcastBucketStore store = new HazelcastBucketStore(instance, BucketMapConfig.DEFAULT_MAP_NAME, true, Duration.ofSeconds(30));
        try {
            store.warmUp(ROOMY);
            int allowed = 0;
            long started = THREADS.getTotalStartedThreadCount();
            for (int i = 0; i < CALLS; i++) {
                String key = "threads-" + what + ":" + i; // spread over the partitions: owned here and elsewhere
                if (i % 2 == 0) {
                    allowed += store.acquire(key, ROOMY, 1).toCompletableFuture().get(30, TimeUnit.SECONDS).allowed() ? 1 : 0;
                } else {
                    for (Outcome outcome : store.acquireAll(key, ROOMY, new long[] {1, 1}, new long[2]).toCompletableFuture().get(30, TimeUnit.SECONDS)) {
                        allowed += outcome.allowed() ? 1 : 0;
                    }
                }
            }
            long threads = THREADS.getTotalStartedThreadCount() - started;
            assertThat(allowed).as("allowed decisions").isEqualTo(CALLS / 2 + CALLS);
            assertThat(threads).as("threads started for " + CALLS + " calls from the application's " + what).isLessThan(SPARE_THREADS);
        } finally {
            store.close();
        }
    }

    private static boolean atLeast56(String version) {
        String[] parts = version.split("[.-]");
        int major = Integer.parseInt(parts[0]);
        int minor = Integer.parseInt(parts[1]);
        return major > 5 || major == 5 && minor >= 6;
    }
}
