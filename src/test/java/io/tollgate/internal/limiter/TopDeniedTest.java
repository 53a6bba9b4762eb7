package io.tollgate.internal.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.Decision;
import io.tollgate.DeniedKey;
import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.testing.TestClock;
import io.tollgate.testing.TestRules;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The most denied keys of a rule, with a fake clock: exact counts while few keys are denied, the window, the bounds. */
class TopDeniedTest {

    private static final long MINUTE = 60_000_000L;
    private static final Decision DENIED = Decision.builder("search").allowed(false).burst(2, 0)
            .retryAfter(Duration.ofSeconds(1)).build();
    private static final Decision ALLOWED = Decision.builder("search").remaining(1).burst(2, 0).build();

    private final RuleConfig search = TestRules.read(Map.of("tollgate.rules.search.rate", "1/s", "tollgate.rules.search.burst", "2",
            "tollgate.rules.other.rate", "1/s")).rule("search");
    private final RuleConfig other = TestRules.read(Map.of("tollgate.rules.search.rate", "1/s",
            "tollgate.rules.other.rate", "1/s")).rule("other");
    private final TestClock clock = new TestClock(100 * MINUTE);

    @Test
    void whileFewerKeysAreDeniedThanItHoldsEveryCountIsExactAndEveryKeyHashed() {
        TopDenied top = new TopDenied(List.of(search, other), 8, 1, clock);
        deny(top, "203.0.113.7", 50);
        deny(top, "198.51.100.1", 7);
        deny(top, "client/with?odd=chars", 20);
        top.decided(other, "203.0.113.7", Decision.builder("other").allowed(false).build(), 0);

        assertThat(top.top("search", 10)).containsExactly(
                new DeniedKey(BucketKeys.hash("203.0.113.7"), 50, 0),
                new DeniedKey(BucketKeys.hash("client/with?odd=chars"), 20, 0),
                new DeniedKey(BucketKeys.hash("198.51.100.1"), 7, 0));
        assertThat(top.top("search", 2)).extracting(DeniedKey::count).containsExactly(50L, 20L);
        assertThat(top.top("other", 10)).containsExactly(new DeniedKey(BucketKeys.hash("203.0.113.7"), 1, 0));
        assertThat(top.top("unknown", 10)).isEmpty();
    }

    @Test
    void countsWhatTheBucketDeniedOnly() {
        TopDenied top = new TopDenied(List.of(search), 8, 1, clock);
        for (int i = 0; i < 100; i++) {
            top.decided(search, "allowed", ALLOWED, 0);
            top.decided(search, "failed-closed", Decision.builder("search").allowed(false).storeUnavailable(true).build(), 0);
            top.decided(search, "failed-open", Decision.builder("search").storeUnavailable(true).build(), 0);
        }
        top.decided(search, "shadow", Decision.builder("search").shadowDenied(true).build(), 0);
        top.decided(search, "denied", DENIED, 0);

        assertThat(top.top("search", 10)).containsExactlyInAnyOrder(new DeniedKey(BucketKeys.hash("shadow"), 1, 0),
                new DeniedKey(BucketKeys.hash("denied"), 1, 0));
    }

    @Test
    void theWindowIsTheMinuteInProgressAndTheWholeMinuteBefore() {
        TopDenied top = new TopDenied(List.of(search), 8, 1, clock);
        deny(top, "a", 5); // at 100:00
        clock.advance(Duration.ofSeconds(59));
        deny(top, "a", 1); // 100:59, the same minute
        clock.advance(Duration.ofSeconds(2));
        deny(top, "b", 3); // 101:01
        assertThat(top.top("search", 10)).extracting(DeniedKey::count).containsExactly(6L, 3L);

        clock.set(102 * MINUTE); // 102:00: the minute of a's denials is two minutes back
        assertThat(top.top("search", 10)).containsExactly(new DeniedKey(BucketKeys.hash("b"), 3, 0));
        deny(top, "b", 1);
        assertThat(top.top("search", 10)).containsExactly(new DeniedKey(BucketKeys.hash("b"), 4, 0));

        clock.set(104 * MINUTE - 1); // 103:59.999999: b's minute of 101 has gone, 102's is the previous
        assertThat(top.top("search", 10)).containsExactly(new DeniedKey(BucketKeys.hash("b"), 1, 0));
        clock.set(104 * MINUTE);
        assertThat(top.top("search", 10)).isEmpty();

        clock.set(200 * MINUTE);
        deny(top, "c", 2);
        clock.set(199 * MINUTE); // a clock that steps back counts on in the minute it had
        deny(top, "c", 1);
        assertThat(top.top("search", 10)).containsExactly(new DeniedKey(BucketKeys.hash("c"), 3, 0));
    }

    @Test
    void aHundredThousandKeysKeepItsSizeBoundedAndTheHeavyOnesAreFoundWithinTheBound() {
        int capacity = 16;
        TopDenied top = new TopDenied(List.of(search), capacity, 1, clock);
        Map<String, Long> truth = new HashMap<>();
        long denials = 0;
        for (int i = 0; i < 100_000; i++) {
            denials += deny(top, truth, "client-" + i, 1);
            if (i % 10 == 0) {
                denials += deny(top, truth, "heavy-a", 3);
                denials += deny(top, truth, "heavy-b", 2);
            }
            if (i % 5 == 0) {
                denials += deny(top, truth, "heavy-c", 1);
            }
        }
        List<DeniedKey> listed = top.top("search", 1_000);

        assertThat(listed).hasSizeLessThanOrEqualTo(2 * capacity); // one stripe, two minutes
        // 30 000, 20 000 and 20 000 of 170 000 denials, each above 170 000 / 16: they must be listed, and first
        assertThat(truth.get("heavy-c")).isGreaterThan(denials / capacity);
        assertThat(listed.subList(0, 3)).extracting(DeniedKey::keyHash).containsExactlyInAnyOrder(BucketKeys.hash("heavy-a"),
                BucketKeys.hash("heavy-b"), BucketKeys.hash("heavy-c"));
        assertWithinTheBound(listed, truth, denials, capacity);
    }

    @Test
    void threadsCountingAtOnceOnSeveralStripesStayWithinTheSameBound() throws Exception {
        int capacity = 8;
        int threads = 4;
        TopDenied top = new TopDenied(List.of(search), capacity, threads, clock);
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            workers.add(new Thread(() -> {
                await(start);
                for (int i = 0; i < 20_000; i++) {
                    top.decided(search, "thread-" + id + "-client-" + i, DENIED, 0);
                    if (i % 2 == 0) {
                        top.decided(search, "hot", DENIED, 0);
                    }
                }
            }));
        }
        workers.forEach(Thread::start);
        start.countDown();
        for (Thread worker : workers) {
            worker.join(TimeUnit.MINUTES.toMillis(1));
            assertThat(worker.isAlive()).isFalse();
        }
        Map<String, Long> truth = new HashMap<>(Map.of("hot", 4L * 10_000));
        for (int t = 0; t < threads; t++) {
            for (int i = 0; i < 20_000; i++) {
                truth.put("thread-" + t + "-client-" + i, 1L);
            }
        }
        long denials = 4L * 30_000; // hot's 40 000 are above 120 000 / 8: it must be listed, and first
        List<DeniedKey> listed = top.top("search", 1_000);

        assertThat(listed.get(0).keyHash()).isEqualTo(BucketKeys.hash("hot"));
        assertThat(listed).hasSizeLessThanOrEqualTo(2 * capacity * TopDenied.MAX_STRIPES);
        assertWithinTheBound(listed, truth, denials, capacity);
    }

    /** Each listed count is at least the key's true denials, at most maxError above, and maxError is at most denials / capacity. */
    private static void assertWithinTheBound(List<DeniedKey> listed, Map<String, Long> truth, long denials, int capacity) {
        Map<String, Long> byHash = new HashMap<>();
        truth.forEach((key, count) -> byHash.put(BucketKeys.hash(key), count));
        for (DeniedKey key : listed) {
            long actual = byHash.get(key.keyHash());
            assertThat(key.count()).isGreaterThanOrEqualTo(actual);
            assertThat(key.guaranteed()).isLessThanOrEqualTo(actual);
            assertThat(key.maxError()).isLessThanOrEqualTo(denials / capacity);
        }
    }

    private void deny(TopDenied top, String key, int times) {
        for (int i = 0; i < times; i++) {
            top.decided(search, key, DENIED, 0);
        }
    }

    private long deny(TopDenied top, Map<String, Long> truth, String key, int times) {
        deny(top, key, times);
        truth.merge(key, (long) times, Long::sum);
        return times;
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
