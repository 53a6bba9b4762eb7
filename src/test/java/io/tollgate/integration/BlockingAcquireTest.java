package io.tollgate.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.Decision;
import io.tollgate.RateLimiter;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.TestApp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link RateLimiter#acquire} on two applications over a real two-member Hazelcast cluster, on real time: callers on
 * both that wait for one key's tokens are all served, never faster than the rule allows; bad arguments are refused
 * with nothing taken.
 */
@Tag("hazelcast")
class BlockingAcquireTest {

    private static final int THREADS_PER_MEMBER = 3;
    private static final int ACQUIRES_PER_THREAD = 8;
    private static final long RATE = 20;
    private static final long BURST = 5;

    private static HazelcastTestCluster cluster;
    private final String map = "acquire-" + UUID.randomUUID();

    @BeforeAll
    static void startTheCluster() {
        cluster = HazelcastTestCluster.start(2);
        cluster.clock().useSystemTime();
    }

    @AfterAll
    static void stopTheCluster() {
        cluster.close();
    }

    private TestApp app(int member) throws Exception {
        return TestApp.builder().hazelcast(cluster.member(member))
                .property("tollgate.hazelcast.map", map)
                .property("tollgate.rules.partner.rate", RATE + "/s")
                .property("tollgate.rules.partner.burst", String.valueOf(BURST))
                .start();
    }

    @Test
    void callersOnTwoMembersWaitingForOneKeyAreAllServedNeverFasterThanBurstPlusRateTimesElapsed() throws Exception {
        try (TestApp first = app(0); TestApp second = app(1)) {
            List<RateLimiter> limiters = List.of(first.bean(RateLimiter.class), second.bean(RateLimiter.class));
            int threads = THREADS_PER_MEMBER * limiters.size();
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Integer>> granted = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                RateLimiter limiter = limiters.get(t % limiters.size());
                granted.add(pool.submit(() -> {
                    start.await();
                    int allowed = 0;
                    for (int i = 0; i < ACQUIRES_PER_THREAD; i++) {
                        Decision decision = limiter.acquire("partner", "outbound", 1, Duration.ofSeconds(30));
                        allowed += decision.allowed() ? 1 : 0;
                    }
                    return allowed;
                }));
            }
            long begun = System.nanoTime();
            start.countDown();
            int total = 0;
            for (Future<Integer> each : granted) {
                total += each.get(2, TimeUnit.MINUTES);
            }
            double elapsed = (System.nanoTime() - begun) / 1e9;
            pool.shutdownNow();

            assertThat(total).as("every caller waited for its tokens and got them").isEqualTo(threads * ACQUIRES_PER_THREAD);
            assertThat((double) total).as("granted over %.3f s", elapsed).isLessThanOrEqualTo(BURST + RATE * elapsed);
        }
    }

    @Test
    void badArgumentsAreRefusedWithNothingTaken() throws Exception {
        try (TestApp app = app(0)) {
            RateLimiter limiter = app.bean(RateLimiter.class);
            assertThatThrownBy(() -> limiter.acquire("nope", "k", 1, Duration.ofSeconds(1))).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("rule = 'nope': no such rule; configured rules are [partner]");
            assertThatThrownBy(() -> limiter.acquire("partner", "k", 1, null)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("maxWait = null");
            assertThatThrownBy(() -> limiter.acquire("partner", "k", 1, Duration.ofSeconds(-1)))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> limiter.acquire("partner", "k", BURST + 1, Duration.ofSeconds(1)))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThat(limiter.tryAcquire("partner", "k", 0).remaining()).as("nothing taken").isEqualTo(BURST);
        }
    }
}
