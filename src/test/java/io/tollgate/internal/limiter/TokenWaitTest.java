package io.tollgate.internal.limiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.Decision;
import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.store.InMemoryBucketStore;
import io.tollgate.testing.TestClock;
import io.tollgate.testing.TestRules;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The blocking acquire on a fake clock: it sleeps a denial's retry-after and takes the tokens then, gives up at once
 * when the retry-after ends past its longest wait, and an interrupted or refused wait takes nothing.
 */
class TokenWaitTest {

    private final TestClock clock = TestClock.atRealTime();
    private final Limiter limiter = new Limiter(new InMemoryBucketStore(clock, 1_000), Duration.ofSeconds(1));
    private final FakeSleeper sleeper = new FakeSleeper();
    private final TokenWait wait = new TokenWait(sleeper);

    /** The fake clock's time, which a sleep advances. */
    private final class FakeSleeper implements Sleeper {
        final List<Duration> sleeps = new ArrayList<>();
        boolean interruptOnSleep;

        @Override
        public long nanoTime() {
            return clock.nowMicros() * 1_000;
        }

        @Override
        public void sleep(long nanos) throws InterruptedException {
            if (interruptOnSleep || Thread.interrupted()) {
                throw new InterruptedException();
            }
            sleeps.add(Duration.ofNanos(nanos));
            clock.advanceMicros(nanos / 1_000);
        }
    }

    @AfterEach
    void clearTheInterrupt() {
        Thread.interrupted();
    }

    private static RuleConfig rule(String... more) {
        Map<String, String> properties = new HashMap<>(Map.of("tollgate.rules.r.rate", "1/s", "tollgate.rules.r.burst", "1"));
        for (int i = 0; i < more.length; i += 2) {
            properties.put(more[i], more[i + 1]);
        }
        return TestRules.read(properties).rule("r");
    }

    private Decision acquire(RuleConfig rule, String key, long cost, Duration maxWait) throws InterruptedException {
        return wait.acquire(() -> limiter.check(rule, key, cost), maxWait);
    }

    @Test
    void theSecondAcquireIsGrantedAfterOneSecondOfWaiting() throws Exception {
        RuleConfig rule = rule();
        assertThat(acquire(rule, "k", 1, Duration.ofSeconds(5)).allowed()).isTrue();
        assertThat(sleeper.sleeps).as("a token was there: no wait").isEmpty();

        Decision second = acquire(rule, "k", 1, Duration.ofSeconds(5));
        assertThat(second.allowed()).isTrue();
        assertThat(sleeper.sleeps).containsExactly(Duration.ofSeconds(1));
        assertThat(limiter.check(rule, "k", 1).allowed()).as("the waited token was taken").isFalse();
    }

    @Test
    void aRetryAfterPastTheLongestWaitIsAnsweredAtOnceWithoutSleeping() throws Exception {
        RuleConfig rule = rule();
        assertThat(acquire(rule, "k", 1, Duration.ZERO).allowed()).isTrue();

        Decision denied = acquire(rule, "k", 1, Duration.ofMillis(999));
        assertThat(denied.allowed()).isFalse();
        assertThat(denied.retryAfter()).isEqualTo(Duration.ofSeconds(1));
        assertThat(acquire(rule, "k", 1, Duration.ZERO).allowed()).isFalse();
        assertThat(sleeper.sleeps).as("no sleep in vain").isEmpty();
    }

    @Test
    void anInterruptedWaitThrowsAndTakesNothing() throws Exception {
        RuleConfig rule = rule();
        assertThat(acquire(rule, "k", 1, Duration.ZERO).allowed()).isTrue();
        sleeper.interruptOnSleep = true;
        assertThatThrownBy(() -> acquire(rule, "k", 1, Duration.ofSeconds(5))).isInstanceOf(InterruptedException.class);

        clock.advance(Duration.ofSeconds(1));
        assertThat(limiter.check(rule, "k", 1).allowed()).as("the token minted meanwhile is still there").isTrue();

        Thread.currentThread().interrupt();
        sleeper.interruptOnSleep = false;
        clock.advance(Duration.ofSeconds(1));
        assertThatThrownBy(() -> acquire(rule, "k", 1, Duration.ofSeconds(5))).isInstanceOf(InterruptedException.class);
        assertThat(limiter.check(rule, "k", 1).allowed()).as("interrupted on entry: not asked").isTrue();
    }

    @Test
    void badArgumentsAreRefusedBeforeAnythingIsTaken() {
        RuleConfig rule = rule();
        assertThatThrownBy(() -> acquire(rule, "k", 1, null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("maxWait = null");
        assertThatThrownBy(() -> acquire(rule, "k", 1, Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("maxWait = PT-0.001S");
        assertThatThrownBy(() -> acquire(rule, "k", 2, Duration.ofSeconds(5))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> acquire(rule, "k", -1, Duration.ofSeconds(5))).isInstanceOf(IllegalArgumentException.class);
        assertThat(limiter.check(rule, "k", 1).remaining()).as("the bucket is untouched").isZero();
        assertThat(sleeper.sleeps).isEmpty();
    }

    @Test
    void aShadowRuleAnswersAtOnce() throws Exception {
        RuleConfig rule = rule("tollgate.rules.r.mode", "shadow");
        assertThat(acquire(rule, "k", 1, Duration.ofSeconds(5)).allowed()).isTrue();
        Decision wouldDeny = acquire(rule, "k", 1, Duration.ofSeconds(5));
        assertThat(wouldDeny.allowed()).isTrue();
        assertThat(wouldDeny.shadowDenied()).isTrue();
        assertThat(sleeper.sleeps).isEmpty();
    }

    @Test
    void aStoreFailureIsAnsweredAtOnceByThePolicy() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        Decision closed = Decision.builder("r").allowed(false).storeUnavailable(true).retryAfter(Duration.ofSeconds(1)).build();
        assertThat(wait.acquire(() -> {
            attempts.incrementAndGet();
            return closed;
        }, Duration.ofMinutes(1))).isSameAs(closed);
        assertThat(attempts).hasValue(1);
        assertThat(sleeper.sleeps).isEmpty();
    }

    @Test
    void severalWaitsAddUpAndStopWithinTheLongestWait() throws Exception {
        RuleConfig rule = rule();
        assertThat(acquire(rule, "k", 1, Duration.ZERO).allowed()).isTrue();
        // another caller takes each token as it comes: this one waits again, until the next would end past 2.5 s
        Sleeper thief = new Sleeper() {
            @Override
            public long nanoTime() {
                return sleeper.nanoTime();
            }

            @Override
            public void sleep(long nanos) throws InterruptedException {
                sleeper.sleep(nanos);
                assertThat(limiter.check(rule, "k", 1).allowed()).isTrue();
            }
        };
        Decision denied = new TokenWait(thief).acquire(() -> limiter.check(rule, "k", 1), Duration.ofMillis(2_500));
        assertThat(denied.allowed()).isFalse();
        assertThat(sleeper.sleeps).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(1));
    }
}
