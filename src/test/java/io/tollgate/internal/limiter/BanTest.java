package io.tollgate.internal.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.Decision;
import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.config.TollgateConfig;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.core.Clock;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.internal.store.BanSharing;
import io.tollgate.internal.store.BannedKey;
import io.tollgate.internal.store.Bans;
import io.tollgate.internal.store.BucketStore;
import io.tollgate.internal.store.InMemoryBucketStore;
import io.tollgate.testing.CapturedLog;
import io.tollgate.testing.TestClock;
import io.tollgate.testing.TestRules;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * Bans on the in-memory store with a stopped clock: the n-th denial starts a ban, not the (n-1)-th; the ban answers
 * without charging anything, lasts exactly ban-for, and a lifted ban ends at once.
 */
class BanTest {

    private static final Instant START = Instant.parse("2026-11-23T10:00:00Z");

    private final TestClock clock = new TestClock(START.getEpochSecond() * 1_000_000);
    private final CountingStore store = new CountingStore(new InMemoryBucketStore(clock, 1_000));
    private final BanRecorder observer = new BanRecorder();
    /** r: burst 2, nothing refilled within a test, 3 denials within 10 minutes ban for 5 minutes; s: r in shadow mode; f: a flood's */
    private final TollgateConfig config = TestRules.read(Map.ofEntries(
            Map.entry("tollgate.rules.r.rate", "1/1h"), Map.entry("tollgate.rules.r.burst", "2"),
            Map.entry("tollgate.rules.r.ban-after", "3/10m"), Map.entry("tollgate.rules.r.ban-for", "5m"),
            Map.entry("tollgate.rules.s.rate", "1/1h"), Map.entry("tollgate.rules.s.burst", "2"),
            Map.entry("tollgate.rules.s.mode", "shadow"), Map.entry("tollgate.rules.s.ban-after", "3/10m"),
            Map.entry("tollgate.rules.s.ban-for", "5m"), Map.entry("tollgate.rules.f.rate", "1/1h"),
            Map.entry("tollgate.rules.f.burst", "1"), Map.entry("tollgate.rules.f.ban-after", "5/1h"),
            Map.entry("tollgate.rules.f.ban-for", "5m")));
    private final RuleConfig rule = config.rule("r");
    private final Limiter limiter = new Limiter(store, Duration.ofSeconds(10), observer,
            new Bans(store, clock, BanSharing.local(store.inner()::reset)));

    /** Spends the burst, then denies {@code denials} times. */
    private void deny(String key, int denials) {
        deny(limiter, key, denials);
    }

    private void deny(Limiter limiter, String key, int denials) {
        while (limiter.check(rule, key, 1).allowed()) {
            // spend the burst
        }
        for (int i = 1; i < denials; i++) {
            assertThat(limiter.check(rule, key, 1).banned()).isFalse();
        }
    }

    @Test
    void theNthDenialStartsTheBanNotTheOneBefore() {
        deny("a", 2);
        assertThat(observer.bans).as("two denials of three").isEmpty();
        assertThat(limiter.bans().until("r", "a")).isEmpty();
        Decision third = limiter.check(rule, "a", 1);
        assertThat(third.allowed()).isFalse();
        assertThat(third.banned()).as("the third denial is a denial; it starts the ban").isFalse();
        assertThat(observer.bans).containsExactly("r:a until " + START.plus(Duration.ofMinutes(5)));
        Decision banned = limiter.check(rule, "a", 1);
        assertThat(banned.banned()).isTrue();
        assertThat(banned.allowed()).isFalse();
        assertThat(banned.retryAfter()).isEqualTo(Duration.ofMinutes(5));
        assertThat(limiter.bans().until("r", "a")).contains(START.plus(Duration.ofMinutes(5)));
        assertThat(limiter.check(rule, "b", 1).allowed()).as("another key").isTrue();
        assertThat(observer.bans).as("one event per ban").hasSize(1);
    }

    @Test
    void aBanAnswersWithoutTheStoreAndLastsExactlyBanFor() {
        deny("a", 3);
        long calls = store.calls.get();
        clock.advanceMicros(Duration.ofMinutes(5).toNanos() / 1_000 - 1);
        Decision last = limiter.check(rule, "a", 1);
        assertThat(last.banned()).as("1 µs before its end").isTrue();
        assertThat(last.retryAfterMicros()).isEqualTo(1);
        assertThat(store.calls.get()).as("a banned key asks the store nothing").isEqualTo(calls);
        clock.advanceMicros(1);
        assertThat(limiter.bans().until("r", "a")).as("at its end").isEmpty();
        Decision after = limiter.check(rule, "a", 1);
        assertThat(after.banned()).as("at its end").isFalse();
        assertThat(after.allowed()).as("its bucket, asked again, is still empty").isFalse();
        assertThat(store.calls.get()).isGreaterThan(calls);
        // the count goes on where it was: 1.5 of 3 denials refilled in 5 minutes, so this denial took the last whole one
        assertThat(observer.bans).hasSize(2);
        assertThat(limiter.bans().until("r", "a")).contains(START.plus(Duration.ofMinutes(10)));
    }

    /**
     * A flood of 10 requests a second on one key for 20 minutes, with ban-after=5/1h and ban-for=5m: at each ban's end
     * the count has refilled less than one denial, so the first denial after the end bans again, and the flood costs
     * the store a few calls per ban, not one per request.
     */
    @Test
    void aFloodIsBannedAgainAtItsFirstDenialAfterEachBanAndCostsTheStoreAFewCallsPerBan() {
        RuleConfig flooded = config.rule("f");
        long step = 100_000;
        long banMicros = Duration.ofMinutes(5).toNanos() / 1_000;
        long longestGap = 0;
        long bannedUntil = 0;
        long endedAt = -1;
        int bans = 0;
        for (int i = 0; i < 12_000; i++) {
            Decision decision = limiter.check(flooded, "attacker", 1);
            long now = clock.nowMicros();
            if (decision.banned()) {
                assertThat(now).isLessThan(bannedUntil);
            } else if (observer.bans.size() > bans) {
                bans = observer.bans.size();
                assertThat(observer.bans).last().isEqualTo("f:attacker until " + Clock.instant(now + banMicros));
                if (endedAt >= 0) {
                    longestGap = Math.max(longestGap, now - endedAt);
                }
                bannedUntil = now + banMicros;
                endedAt = -1;
            } else if (bannedUntil > 0 && endedAt < 0) {
                endedAt = now;
            }
            clock.advanceMicros(step);
        }
        if (endedAt >= 0) {
            longestGap = Math.max(longestGap, clock.nowMicros() - endedAt);
        }
        long gap = longestGap;
        SoftAssertions.assertSoftly(softly -> {
            softly.assertThat(gap).as("µs from a ban's end to the next ban").isZero();
            softly.assertThat(observer.bans).as("bans in 20 minutes, one at the start and one at each end").hasSize(4);
            softly.assertThat(store.banCounts.get()).as("denials counted in the store: five, then one per ban").isEqualTo(5 + 3);
            softly.assertThat(store.calls.get()).as("store calls: one grant, five denials and their counts, then two per ban")
                    .isEqualTo(1 + 5 + 5 + 2 * 3);
        });
    }

    @Test
    void aLiftedBanEndsAtOnceAndItsDenialsAreForgotten() {
        deny("a", 3);
        assertThat(limiter.bans().list("r")).containsExactly(new BannedKey(BucketKeys.hash("a"), START.plus(Duration.ofMinutes(5))));
        assertThat(limiter.bans().lift("r", "a")).isTrue();
        assertThat(limiter.bans().until("r", "a")).isEmpty();
        assertThat(limiter.bans().list("r")).isEmpty();
        assertThat(limiter.check(rule, "a", 1).banned()).as("lifted: denied by its bucket, not banned").isFalse();
        assertThat(limiter.check(rule, "a", 1).banned()).as("two new denials of three").isFalse();
        assertThat(limiter.check(rule, "a", 1).banned()).isFalse();
        assertThat(limiter.check(rule, "a", 1).banned()).as("three new denials ban again").isTrue();
        assertThat(limiter.bans().lift("r", "nobody")).isFalse();
    }

    /**
     * A member keeps at most {@code tollgate.bans.max-entries} bans: beyond, a key's denials count towards no ban and
     * start none (its bucket alone limits it), which a WARNING says; a lifted or ended ban makes room.
     */
    @Test
    void aMemberKeepsAtMostItsBoundOfBans() {
        Limiter bounded = new Limiter(store, Duration.ofSeconds(10), observer,
                new Bans(store, clock, BanSharing.local(store.inner()::reset), 3));
        try (CapturedLog log = CapturedLog.of(Bans.class)) {
            for (int i = 0; i < 10; i++) {
                deny(bounded, "attacker-" + i, 3);
                bounded.check(rule, "attacker-" + i, 1);
            }
            long counts = store.banCounts.get();
            SoftAssertions.assertSoftly(softly -> {
                softly.assertThat(bounded.bans().list("r")).as("bans of 10 keys that earned one").hasSize(3);
                softly.assertThat(observer.bans).as("bans started").hasSize(3);
                softly.assertThat(observer.skipped).as("denials of the 7 other keys, none counted").hasValue(7 * 4);
                softly.assertThat(counts).as("denials counted in the store").isEqualTo(3 * 3);
                softly.assertThat(log.at(Level.WARNING)).as("the WARNING").isNotEmpty();
            });
            assertThat(log.at(Level.WARNING).get(0).getMessage()).contains("tollgate.bans.max-entries=3", "rule(s) 'r'");

            assertThat(bounded.bans().lift("r", "attacker-0")).isTrue();
            deny(bounded, "attacker-3", 3);
            assertThat(bounded.bans().until("r", "attacker-3")).as("a lift made room").isPresent();
            assertThat(bounded.bans().list("r")).hasSize(3);

            clock.advance(Duration.ofMinutes(5));
            deny(bounded, "attacker-4", 3);
            assertThat(bounded.bans().until("r", "attacker-4")).as("ended bans made room").isPresent();
            assertThat(bounded.bans().size()).as("the ended ones are dropped").isEqualTo(1);
        }
    }

    /** The other side of a split lifted one ban and started another; this member missed both events. */
    @Test
    void aCatchUpMakesTheCopyWhatTheStoreHolds() {
        deny("a", 3);
        long until = clock.nowMicros() + Duration.ofMinutes(7).toNanos() / 1_000;
        limiter.bans().reconcile(Map.of(BucketKeys.of("r", "b"), until));
        assertThat(limiter.bans().until("r", "a")).as("lifted elsewhere").isEmpty();
        assertThat(limiter.bans().until("r", "b")).as("started elsewhere").contains(START.plus(Duration.ofMinutes(7)));
        assertThat(limiter.check(rule, "b", 1).banned()).isTrue();
    }

    @Test
    void aBannedKeyChargesNoRuleOfTheRequest() {
        RequestGate gate = new RequestGate(limiter, name -> null);
        RuleConfig other = TestRules.read(Map.of("tollgate.rules.o.rate", "1/1h", "tollgate.rules.o.burst", "5")).rule("o");
        deny("a", 3);
        List<RuleCheck> checks = gate.check(List.of(other, rule), null, null, new Object[0], "a");
        assertThat(checks).singleElement().satisfies(check -> assertThat(check.decision().banned()).isTrue());
        assertThat(RequestGate.denial(checks).rule()).isEqualTo(rule);
        for (int i = 0; i < 5; i++) {
            assertThat(limiter.check(other, "a", 1).allowed()).as("the other rule's burst is whole").isTrue();
        }
    }

    @Test
    void aShadowRuleNeverBans() {
        RuleConfig shadow = config.rule("s");
        for (int i = 0; i < 10; i++) {
            Decision decision = limiter.check(shadow, "a", 1);
            assertThat(decision.allowed()).isTrue();
            assertThat(decision.banned()).isFalse();
        }
        assertThat(observer.bans).isEmpty();
        assertThat(limiter.bans().list("s")).isEmpty();
    }

    @Test
    void aDenialTheStoreCouldNotCountStartsNoBan() {
        deny("a", 2);
        store.failCounting = true;
        assertThat(limiter.check(rule, "a", 1).allowed()).isFalse();
        assertThat(observer.bans).as("the third denial was not counted").isEmpty();
        store.failCounting = false;
        assertThat(limiter.check(rule, "a", 1).allowed()).isFalse();
        assertThat(observer.bans).as("the fourth was, and is the third counted").hasSize(1);
        assertThat(limiter.check(rule, "a", 1).banned()).isTrue();
    }

    @Test
    void aPolicysAnswerIsNotCounted() {
        deny("a", 2);
        store.failing = true;
        Decision policy = limiter.check(rule, "a", 1);
        assertThat(policy.storeUnavailable()).isTrue();
        store.failing = false;
        assertThat(observer.bans).isEmpty();
        assertThat(limiter.check(rule, "a", 1).banned()).as("two counted denials and a policy's answer: no ban").isFalse();
        assertThat(observer.bans).hasSize(1);
    }

    /** Records the bans started, and counts the denials the bound kept from counting. */
    private static final class BanRecorder implements DecisionObserver {
        final List<String> bans = new CopyOnWriteArrayList<>();
        final AtomicLong skipped = new AtomicLong();

        @Override
        public void banSkipped(RuleConfig rule, String key) {
            skipped.incrementAndGet();
        }

        @Override
        public void decided(RuleConfig rule, String key, Decision decision, long nanos) {
        }

        @Override
        public void storeFailed(RuleConfig rule, String key, boolean timedOut, Decision decision) {
        }

        @Override
        public void banned(RuleConfig rule, String key, Instant until) {
            bans.add(rule.name() + ":" + key + " until " + until);
        }
    }

    /** Counts the calls that reach the store; can fail them all, or those that count denials. */
    private static final class CountingStore implements BucketStore {
        final AtomicLong calls = new AtomicLong();
        /** Calls that count a denial towards a ban. */
        final AtomicLong banCounts = new AtomicLong();
        private final InMemoryBucketStore inner;
        volatile boolean failing;
        volatile boolean failCounting;

        CountingStore(InMemoryBucketStore inner) {
            this.inner = inner;
        }

        InMemoryBucketStore inner() {
            return inner;
        }

        @Override
        public CompletionStage<Outcome> acquire(String key, TokenBucket bucket, long cost) {
            calls.incrementAndGet();
            if (key.contains(":#ban:")) {
                banCounts.incrementAndGet();
            }
            if (failing || (failCounting && key.contains(":#ban:"))) {
                return CompletableFuture.failedFuture(new IllegalStateException("down"));
            }
            return inner.acquire(key, bucket, cost);
        }
    }
}
