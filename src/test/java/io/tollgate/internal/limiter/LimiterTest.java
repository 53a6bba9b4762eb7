package io.tollgate.internal.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.Decision;
import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.internal.store.BucketStore;
import io.tollgate.internal.store.DenialCache;
import io.tollgate.internal.store.InMemoryBucketStore;
import io.tollgate.testing.TestClock;
import io.tollgate.testing.TestCluster;
import io.tollgate.testing.TestRules;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The engine's answers when the store fails or is slow: the rule's policy, never a wait past the timeout. */
class LimiterTest {

    private final TestClock clock = TestClock.atRealTime();
    private final SwitchableStore switchable = new SwitchableStore(new InMemoryBucketStore(clock, 1_000));
    private final DenialCache store = new DenialCache(switchable, 1_000, () -> clock.nowMicros() * 1_000);
    private final RecordingObserver observer = new RecordingObserver();
    private final Limiter limiter = new Limiter(store, Duration.ofMillis(100), observer);

    private static RuleConfig rule(String policy) {
        Map<String, String> properties = Map.of("tollgate.rules.r.rate", "1/1h", "tollgate.rules.r.burst", "2",
                "tollgate.rules.r.on-store-failure", policy);
        return TestRules.read(properties).rule("r");
    }

    @Test
    void aFailingStoreIsAnsweredByThePolicyWithNothingCharged() {
        switchable.mode = Mode.FAIL;
        Decision open = limiter.check(rule("allow"), "a", 1);
        assertThat(open.allowed()).isTrue();
        assertThat(open.storeUnavailable()).isTrue();
        Decision closed = limiter.check(rule("deny"), "a", 1);
        assertThat(closed.allowed()).isFalse();
        assertThat(closed.retryAfterSeconds()).isEqualTo(1);
        switchable.mode = Mode.WORK;
        assertThat(limiter.check(rule("allow"), "a", 2).allowed()).as("nothing was charged").isTrue();
    }

    @Test
    void aStoreThatNeverAnswersIsAnsweredByThePolicyWhenTheTimeoutPasses() throws Exception {
        switchable.mode = Mode.HANG;
        assertThat(limiter.check(rule("allow"), "a", 1).storeUnavailable()).isTrue();
        Decision async = limiter.checkAsync(rule("deny"), "a", 1).get(10, TimeUnit.SECONDS);
        assertThat(async.allowed()).isFalse();
        assertThat(async.storeUnavailable()).isTrue();
    }

    @Test
    void aKeyDeniedMomentsAgoIsNotLetThroughWhenTheStoreThenFails() {
        RuleConfig open = rule("allow");
        assertThat(limiter.check(open, "hot", 2).allowed()).isTrue();
        assertThat(limiter.check(open, "hot", 1).allowed()).isFalse(); // retry after 1 h
        switchable.mode = Mode.FAIL;
        clock.advance(Duration.ofHours(1));
        // the cached denial has run out, but the key was denied moments ago: a failure is no free pass
        Decision failed = limiter.check(open, "hot", 1);
        assertThat(failed.storeUnavailable()).isTrue();
        assertThat(failed.allowed()).isFalse();
        // a cheaper request than the one denied, or another key, follows the policy
        assertThat(limiter.check(open, "cold", 1).allowed()).isTrue();
        clock.advance(Duration.ofSeconds(1));
        assertThat(limiter.check(open, "hot", 1).allowed()).as("a second after the retry-after the hint is gone").isTrue();
    }

    @Test
    void everyDecisionIsReportedWithItsOutcomeAndEveryStoreFailureWithItsCause() throws Exception {
        Map<String, String> properties = Map.of("tollgate.rules.r.rate", "1/1h", "tollgate.rules.r.burst", "2",
                "tollgate.rules.s.rate", "1/1h", "tollgate.rules.s.burst", "1", "tollgate.rules.s.mode", "shadow");
        RuleConfig enforced = TestRules.read(properties).rule("r");
        RuleConfig shadow = TestRules.read(properties).rule("s");
        limiter.check(enforced, "a", 1);
        limiter.checkAsync(enforced, "a", 1).get(10, TimeUnit.SECONDS);
        limiter.check(enforced, "a", 1);
        limiter.check(shadow, "a", 1);
        limiter.check(shadow, "a", 1);
        switchable.mode = Mode.FAIL;
        limiter.check(enforced, "b", 1);
        switchable.mode = Mode.HANG;
        limiter.check(enforced, "c", 1);
        limiter.checkAsync(enforced, "d", 1).get(10, TimeUnit.SECONDS);
        // fail-open by default: each failure, reported as such with the policy's answer, is then an allowed decision
        assertThat(observer.events).containsExactly("r a allowed", "r a allowed", "r a denied", "s a allowed",
                "s a shadow-denied", "r b error: allowed", "r b allowed", "r c timeout: allowed", "r c allowed",
                "r d timeout: allowed", "r d allowed");
        assertThat(observer.nanos).hasSize(8).allMatch(n -> n >= 0);
    }

    @Test
    void aStoreFailureArrivingAsTheTimeoutPassesIsOneFailure() throws Exception {
        CompletableFuture<Outcome> pending = new CompletableFuture<>();
        switchable.pending = pending;
        switchable.mode = Mode.PENDING;
        CountDownLatch secondReport = new CountDownLatch(1);
        List<String> failures = new CopyOnWriteArrayList<>();
        DecisionObserver slow = new DecisionObserver() {
            @Override
            public void decided(RuleConfig rule, String key, Decision decision, long nanos) {
            }

            @Override
            public void storeFailed(RuleConfig rule, String key, boolean timedOut, Decision decision) {
                failures.add(timedOut ? "timeout" : "error");
                if (failures.size() == 1) {
                    // held while the 100 ms timeout passes: a limiter that also answers the timeout reports it now
                    awaitQuietly(secondReport, 2);
                } else {
                    secondReport.countDown();
                }
            }
        };
        CompletableFuture<Decision> answer = new Limiter(store, Duration.ofMillis(100), slow).checkAsync(rule("deny"), "e", 1);
        pending.completeExceptionally(new IllegalStateException("store down"));
        assertThat(answer.get(10, TimeUnit.SECONDS).storeUnavailable()).isTrue();
        assertThat(failures).containsExactly("error");
    }

    private static void awaitQuietly(CountDownLatch latch, int seconds) {
        try {
            latch.await(seconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Writes down what the limiter reports, in order. */
    private static final class RecordingObserver implements DecisionObserver {
        final List<String> events = new CopyOnWriteArrayList<>();
        final List<Long> nanos = new CopyOnWriteArrayList<>();

        @Override
        public void decided(RuleConfig rule, String key, Decision decision, long nanos) {
            events.add(rule.name() + " " + key + " " + outcome(decision));
            this.nanos.add(nanos);
        }

        @Override
        public void storeFailed(RuleConfig rule, String key, boolean timedOut, Decision decision) {
            events.add(rule.name() + " " + key + (timedOut ? " timeout: " : " error: ") + outcome(decision));
        }

        private static String outcome(Decision decision) {
            return decision.shadowDenied() ? "shadow-denied" : decision.allowed() ? "allowed" : "denied";
        }
    }

    /** Two instances share the store: while it fails, each limits at half the rule, and nothing is charged to the store. */
    @Test
    void theLocalPolicyLimitsAtThisInstancesShareWhileTheStoreFails() {
        Limiter halves = new Limiter(store, Duration.ofMillis(100), observer, io.tollgate.internal.store.Bans.local(store),
                new TestCluster(2, 2), 0);
        RuleConfig local = TestRules.read(Map.of("tollgate.rules.r.rate", "1/1h", "tollgate.rules.r.burst", "10")).rule("r");
        switchable.mode = Mode.FAIL;
        List<Decision> decisions = new java.util.ArrayList<>();
        for (int i = 0; i < 8; i++) {
            decisions.add(halves.check(local, "k", 1));
        }
        assertThat(decisions).allSatisfy(decision -> assertThat(decision.storeUnavailable()).isTrue());
        assertThat(decisions).extracting(Decision::allowed).containsExactly(true, true, true, true, true, false, false, false);
        assertThat(decisions.get(4).remaining()).isZero();
        assertThat(decisions.get(4).burst()).as("the share's burst").isEqualTo(5);
        assertThat(decisions.get(5).retryAfterSeconds()).as("one token of the share: 1/2h").isEqualTo(7_200);
        assertThat(halves.check(local, "other", 1).allowed()).as("each key its own share").isTrue();
        switchable.mode = Mode.WORK;
        Decision back = halves.check(local, "k", 1);
        assertThat(back.storeUnavailable()).isFalse();
        assertThat(back.remaining()).as("the store was charged nothing meanwhile").isEqualTo(9);
    }

    /** A key drained and denied before the store failed gets no fresh share: a cut is no new burst for a flood. */
    @Test
    void aKeyDeniedMomentsBeforeTheFailureStartsItsShareEmpty() {
        Limiter halves = new Limiter(store, Duration.ofMillis(100), observer, io.tollgate.internal.store.Bans.local(store),
                new TestCluster(2, 2), 0);
        RuleConfig local = TestRules.read(Map.of("tollgate.rules.r.rate", "1/1h", "tollgate.rules.r.burst", "4")).rule("r");
        for (int i = 0; i < 4; i++) {
            assertThat(halves.check(local, "flood", 1).allowed()).isTrue();
        }
        assertThat(halves.check(local, "flood", 1).allowed()).isFalse(); // retry after 1 h
        switchable.mode = Mode.FAIL;
        clock.advance(Duration.ofHours(1)); // the cached denial has run out: the store is asked, and fails
        Decision cut = halves.check(local, "flood", 1);
        assertThat(cut.storeUnavailable()).isTrue();
        assertThat(cut.allowed()).as("the share of a key denied moments ago starts empty").isFalse();
        assertThat(halves.check(local, "quiet", 1).allowed()).as("another key's share starts full").isTrue();
        assertThat(halves.check(local, "quiet", 1).allowed()).isTrue();
        assertThat(halves.check(local, "quiet", 1).allowed()).as("its share is 2 of 4").isFalse();
    }

    @Test
    void aShareTooSmallForTheCostDeniesIt() {
        Limiter twentieths = new Limiter(store, Duration.ofMillis(100), observer, io.tollgate.internal.store.Bans.local(store),
                new TestCluster(20, 20), 0);
        RuleConfig local = TestRules.read(Map.of("tollgate.rules.r.rate", "1/1h", "tollgate.rules.r.burst", "10")).rule("r");
        switchable.mode = Mode.FAIL;
        assertThat(twentieths.check(local, "k", 1).allowed()).as("a share holds at least one token").isTrue();
        Decision tooCostly = twentieths.check(local, "j", 2);
        assertThat(tooCostly.allowed()).isFalse();
        assertThat(tooCostly.storeUnavailable()).isTrue();
        assertThat(tooCostly.retryAfterSeconds()).isEqualTo(1);
    }

    @Test
    void belowTheQuorumTheStoreIsNotAskedAndThePolicyAnswers() {
        TestCluster cluster = new TestCluster(1, 3);
        Limiter quorate = new Limiter(store, Duration.ofMillis(100), observer, io.tollgate.internal.store.Bans.local(store),
                cluster, 2);
        RuleConfig deny = rule("deny");
        Decision lost = quorate.check(deny, "q", 1);
        assertThat(lost.storeUnavailable()).isTrue();
        assertThat(lost.allowed()).isFalse();
        assertThat(observer.events).containsExactly("r q error: denied", "r q denied");
        cluster.members(2);
        Decision asked = quorate.check(deny, "q", 1);
        assertThat(asked.allowed()).isTrue();
        assertThat(asked.storeUnavailable()).isFalse();
        assertThat(asked.remaining()).as("the denial before charged nothing").isEqualTo(1);
    }

    private enum Mode { WORK, FAIL, HANG, PENDING }

    private static final class SwitchableStore implements BucketStore {
        private final BucketStore store;
        volatile Mode mode = Mode.WORK;
        volatile CompletableFuture<Outcome> pending;

        SwitchableStore(BucketStore store) {
            this.store = store;
        }

        @Override
        public CompletionStage<Outcome> acquire(String key, TokenBucket bucket, long cost) {
            switch (mode) {
                case FAIL:
                    return CompletableFuture.failedFuture(new IllegalStateException("store down"));
                case HANG:
                    return new CompletableFuture<>();
                case PENDING:
                    return pending;
                default:
                    return store.acquire(key, bucket, cost);
            }
        }
    }
}
