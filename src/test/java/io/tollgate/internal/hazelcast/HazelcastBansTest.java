package io.tollgate.internal.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.Decision;
import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.internal.limiter.DecisionObserver;
import io.tollgate.internal.limiter.Limiter;
import io.tollgate.internal.store.Bans;
import io.tollgate.internal.store.BucketStore;
import io.tollgate.internal.store.CountingStore;
import io.tollgate.testing.Await;
import io.tollgate.testing.CapturedLog;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.SharedCluster;
import io.tollgate.testing.TestRules;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Bans on a 3-member cluster in this JVM: counted exactly from every member, started once, answered on every member
 * from its own copy without a call to the store, loaded by a member that opens its bans later, lifted everywhere, and
 * over on each member's clock at their end.
 */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
class HazelcastBansTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private HazelcastTestCluster cluster;
    private final String map = "bans-" + UUID.randomUUID();
    private final List<CountingStore> stores = new ArrayList<>();
    private final List<Bans> bans = new ArrayList<>();
    private final List<Limiter> limiters = new ArrayList<>();
    private final List<String> started = new CopyOnWriteArrayList<>();
    /** Denials the bound kept from counting towards a ban. */
    private final AtomicLong skipped = new AtomicLong();
    /** burst 1, nothing refilled within a test; 2 denials an hour ban for 10 minutes */
    private final RuleConfig rule = TestRules.read(Map.of("tollgate.rules.r.rate", "1/1h", "tollgate.rules.r.burst", "1",
            "tollgate.rules.r.ban-after", "2/1h", "tollgate.rules.r.ban-for", "10m")).rule("r");

    @BeforeEach
    void openOnEveryMember(HazelcastTestCluster shared) {
        cluster = shared;
        cluster.clock().set(2_600_000_000L * 1_000_000);
        for (int i = 0; i < 3; i++) {
            open(i);
        }
    }

    private Bans open(int member) {
        return open(member, Bans.DEFAULT_MAX_ENTRIES);
    }

    /** Opens the bans of {@code member}, keeping at most {@code maxEntries}, with a limiter; both last in their lists. */
    private Bans open(int member, int maxEntries) {
        CountingStore store = new CountingStore(new HazelcastBucketStore(cluster.member(member), map, true, TIMEOUT));
        Bans memberBans = HazelcastBanSharing.open(cluster.member(member), map, store, maxEntries);
        stores.add(store);
        bans.add(memberBans);
        limiters.add(new Limiter(store, TIMEOUT, new DecisionObserver() {
            @Override
            public void decided(RuleConfig rule, String key, Decision decision, long nanos) {
            }

            @Override
            public void storeFailed(RuleConfig rule, String key, boolean timedOut, Decision decision) {
            }

            @Override
            public void banned(RuleConfig rule, String key, Instant until) {
                started.add(member + ":" + key);
            }

            @Override
            public void banSkipped(RuleConfig rule, String key) {
                skipped.incrementAndGet();
            }
        }, memberBans));
        return memberBans;
    }

    @AfterEach
    void close() {
        bans.forEach(Bans::close);
        stores.forEach(CountingStore::close); // on the shared cluster: their wire-version negotiations end with them
        stores.clear();
        cluster.member(0).getMap(map).destroy();
        cluster.member(0).getMap(map + HazelcastBanSharing.SUFFIX).destroy();
    }

    /** Spends the key's one token on member 0, then denies it twice there: the second denial bans it. */
    private void ban(String key) {
        assertThat(limiters.get(0).check(rule, key, 1).allowed()).isTrue();
        assertThat(limiters.get(0).check(rule, key, 1).allowed()).isFalse();
        assertThat(started).isEmpty();
        assertThat(limiters.get(0).check(rule, key, 1).allowed()).isFalse();
        assertThat(started).containsExactly("0:" + key);
    }

    @Test
    void aBanStartedOnOneMemberIsAnsweredOnTheOthersWithoutTheStore() throws Exception {
        String key = "client-" + UUID.randomUUID();
        String storeKey = BucketKeys.of("r", key);
        ban(key);
        Await.until("member 2's copy", Duration.ofSeconds(30), () -> bans.get(1).leftMicros(storeKey) > 0 && bans.get(2).leftMicros(storeKey) > 0);
        long calls = stores.get(1).calls.get();
        Decision banned = limiters.get(1).check(rule, key, 1);
        assertThat(banned.banned()).isTrue();
        assertThat(banned.allowed()).isFalse();
        assertThat(banned.retryAfter()).as("the ban's length on the members' one clock").isEqualTo(Duration.ofMinutes(10));
        assertThat(stores.get(1).calls.get()).as("the store was not asked").isEqualTo(calls);
        assertThat(limiters.get(2).check(rule, key, 1).banned()).isTrue();
        assertThat(started).as("started once, on member 0").containsExactly("0:" + key);

        Bans late = open(2);
        assertThat(late.leftMicros(storeKey)).as("a member that opens its bans later loads the current ones")
                .isEqualTo(Duration.ofMinutes(10).toNanos() / 1_000);

        assertThat(bans.get(1).lift("r", key)).isTrue();
        Await.until("the lift on every member", Duration.ofSeconds(30), () -> bans.stream().allMatch(each -> each.leftMicros(storeKey) == 0));
        assertThat(limiters.get(2).check(rule, key, 1).banned()).as("lifted: its bucket denies it").isFalse();
        assertThat(limiters.get(2).check(rule, key, 1).banned()).isFalse();
        assertThat(started).as("a new ban takes two new denials").containsExactly("0:" + key, "2:" + key);
        assertThat(limiters.get(2).check(rule, key, 1).banned()).isTrue();
    }

    @Test
    void aBanIsOverOnEveryMemberAtItsEndWhateverTheMapSays() throws Exception {
        String key = "client-" + UUID.randomUUID();
        String storeKey = BucketKeys.of("r", key);
        ban(key);
        Await.until("every member's copy", Duration.ofSeconds(30), () -> bans.stream().allMatch(each -> each.leftMicros(storeKey) > 0));
        cluster.clock().advance(Duration.ofMinutes(10).minusNanos(1_000));
        assertThat(limiters.get(1).check(rule, key, 1).retryAfterMicros()).isEqualTo(1);
        cluster.clock().advanceMicros(1);
        for (Bans each : bans) {
            assertThat(each.leftMicros(storeKey)).isZero();
        }
        assertThat(cluster.member(0).getMap(map + HazelcastBanSharing.SUFFIX).containsKey(storeKey))
                .as("the map's entry lives on in real time; the members do not wait for its expiry").isTrue();
    }

    /**
     * A flood of 10 requests a second on one key, on the three members in turn, with ban-after=5/1h and ban-for=5m: at
     * each ban's end the count has refilled less than one denial, so the first denial after it bans again; the flood
     * costs the store a few calls per ban, not one per request.
     */
    @Test
    void aFloodIsBannedAgainAtItsFirstDenialAfterEachBanWithAFewStoreCallsPerBan() throws Exception {
        RuleConfig flood = TestRules.read(Map.of("tollgate.rules.f.rate", "1/1h", "tollgate.rules.f.burst", "1",
                "tollgate.rules.f.ban-after", "5/1h", "tollgate.rules.f.ban-for", "5m")).rule("f");
        String key = "attacker-" + UUID.randomUUID();
        String storeKey = BucketKeys.of("f", key);
        long longestGap = 0;
        long endedAt = -1;
        int banCount = 0;
        for (int i = 0; i < 9_600; i++) { // 16 minutes
            Decision decision = limiters.get(i % 3).check(flood, key, 1);
            long now = cluster.clock().nowMicros();
            if (started.size() > banCount) {
                banCount = started.size();
                if (endedAt >= 0) {
                    longestGap = Math.max(longestGap, now - endedAt);
                }
                endedAt = -1;
                Await.until("every member's copy of the ban", Duration.ofSeconds(30),
                        () -> bans.stream().allMatch(each -> each.leftMicros(storeKey) > 0));
            } else if (!decision.banned() && banCount > 0 && endedAt < 0) {
                endedAt = now;
            }
            cluster.clock().advanceMicros(100_000);
        }
        if (endedAt >= 0) {
            longestGap = Math.max(longestGap, cluster.clock().nowMicros() - endedAt);
        }
        long gap = longestGap;
        long calls = stores.stream().mapToLong(store -> store.calls.get()).sum();
        SoftAssertions.assertSoftly(softly -> {
            softly.assertThat(gap).as("µs from a ban's end to the next ban").isZero();
            softly.assertThat(started).as("bans in 16 minutes, one at the start and one at each end").hasSize(4);
            softly.assertThat(calls).as("store calls: one grant, five denials and their counts, then two per ban")
                    .isEqualTo(1 + 5 + 5 + 2 * 3);
        });
    }

    /** As a ban ends, every member finds the key's count empty at once: one of them starts the next ban. */
    @Test
    void whenABanEndsConcurrentDenialsOnEveryMemberStartOneBan() throws Exception {
        String key = "client-" + UUID.randomUUID();
        String storeKey = BucketKeys.of("r", key);
        ban(key);
        Await.until("every member's copy", Duration.ofSeconds(30), () -> bans.stream().allMatch(each -> each.leftMicros(storeKey) > 0));
        cluster.clock().advance(Duration.ofMinutes(10));
        long end = cluster.clock().nowMicros() + Duration.ofMinutes(10).toNanos() / 1_000;
        deniedAtOnceOnEveryMember(rule, key);
        assertThat(started).as("the first ban, and one more as it ended").hasSize(2);
        Await.until("every member's copy of the new ban", Duration.ofSeconds(30),
                () -> bans.stream().allMatch(each -> each.leftMicros(storeKey) == end - cluster.clock().nowMicros()));
    }

    /**
     * Three members count a denial of one key at the same moment and each finds its count empty: each starts a ban on
     * its own copy, and the map keeps the first one written; the other two adopt it, and only one says it started it.
     */
    @Test
    void threeMembersFindingTheCountEmptyAtOnceStartOneBan() throws Exception {
        String storeKey = BucketKeys.of("r", "client-" + UUID.randomUUID());
        TokenBucket counter = rule.ban().counter();
        for (int i = 0; i < 2; i++) {
            stores.get(0).acquire(BucketKeys.banCounter(storeKey), counter, 1).toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
        CyclicBarrier together = new CyclicBarrier(3);
        List<Bans> gated = new ArrayList<>();
        for (int member = 0; member < 3; member++) {
            CountingStore store = stores.get(member);
            gated.add(HazelcastBanSharing.open(cluster.member(member), map, new BucketStore() {
                @Override
                public CompletionStage<Outcome> acquire(String key, TokenBucket bucket, long cost) {
                    try {
                        together.await(30, TimeUnit.SECONDS); // the three counts are sent at once
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    return store.acquire(key, bucket, cost);
                }
            }));
        }
        bans.addAll(gated);
        ExecutorService threads = Executors.newFixedThreadPool(3);
        try {
            List<Future<Long>> starts = new ArrayList<>();
            for (Bans each : gated) {
                starts.add(threads.submit(() -> each.denied(storeKey, counter, rule.ban().durationMicros())
                        .toCompletableFuture().get(30, TimeUnit.SECONDS)));
            }
            List<Long> ends = new ArrayList<>();
            for (Future<Long> start : starts) {
                ends.add(start.get(60, TimeUnit.SECONDS));
            }
            assertThat(ends).as("the end of the ban each member started, 0 for none").filteredOn(end -> end > 0).hasSize(1);
            long end = ends.stream().mapToLong(Long::longValue).max().orElseThrow();
            Await.until("one ban on every copy", Duration.ofSeconds(30),
                    () -> bans.stream().allMatch(each -> each.leftMicros(storeKey) == end - cluster.clock().nowMicros()));
        } finally {
            threads.shutdownNow();
        }
    }

    /**
     * Two members that keep at most 3 bans each: a flood of distinct keys, on each in turn, starts 3 bans, and the
     * map holds those 3; the others' denials are not counted. A lift, then the bans' end, make room again.
     */
    @Test
    void eachMemberKeepsAtMostItsBoundOfBans() throws Exception {
        List<Bans> bounded = List.of(open(0, 3), open(1, 3));
        List<Limiter> boundedLimiters = limiters.subList(3, 5);
        String prefix = "attacker-" + UUID.randomUUID() + "-";
        for (int i = 0; i < 10; i++) {
            Limiter limiter = boundedLimiters.get(i % 2);
            String key = prefix + i;
            assertThat(limiter.check(rule, key, 1).allowed()).isTrue();
            assertThat(limiter.check(rule, key, 1).allowed()).isFalse();
            assertThat(limiter.check(rule, key, 1).allowed()).isFalse();
            String storeKey = BucketKeys.of("r", key);
            if (started.stream().anyMatch(ban -> ban.endsWith(":" + key))) {
                Await.until("both copies of the ban", Duration.ofSeconds(30),
                        () -> bounded.stream().allMatch(each -> each.leftMicros(storeKey) > 0));
            }
        }
        long held = cluster.member(0).getMap(map + HazelcastBanSharing.SUFFIX).size();
        SoftAssertions.assertSoftly(softly -> {
            softly.assertThat(started).as("bans started, of 10 keys that earned one").hasSize(3);
            softly.assertThat(bounded.get(0).size()).as("member 0's copy").isEqualTo(3);
            softly.assertThat(bounded.get(1).size()).as("member 1's copy").isEqualTo(3);
            softly.assertThat(held).as("the map's bans").isEqualTo(3);
            softly.assertThat(skipped).as("denials of the 7 other keys, none counted").hasValue(7 * 2);
        });

        String lifted = started.get(0).substring(2);
        assertThat(bounded.get(1).lift("r", lifted)).isTrue();
        Await.until("the lift on both copies", Duration.ofSeconds(30),
                () -> bounded.stream().allMatch(each -> each.size() == 2));
        String next = prefix + "after-lift";
        assertThat(boundedLimiters.get(0).check(rule, next, 1).allowed()).isTrue();
        boundedLimiters.get(0).check(rule, next, 1);
        boundedLimiters.get(0).check(rule, next, 1);
        assertThat(started).as("a lift made room").hasSize(4);
        Await.until("both copies of the new ban", Duration.ofSeconds(30),
                () -> bounded.stream().allMatch(each -> each.leftMicros(BucketKeys.of("r", next)) > 0));

        cluster.clock().advance(Duration.ofMinutes(10));
        String late = prefix + "after-the-end";
        assertThat(boundedLimiters.get(1).check(rule, late, 1).allowed()).isTrue();
        boundedLimiters.get(1).check(rule, late, 1);
        boundedLimiters.get(1).check(rule, late, 1);
        assertThat(started).as("ended bans made room").hasSize(5);
        Await.until("both copies of the new ban", Duration.ofSeconds(30),
                () -> bounded.stream().allMatch(each -> each.leftMicros(BucketKeys.of("r", late)) > 0));
    }

    /** A member that keeps at most 2 bans leaves out the others' bans beyond them, and says so at WARNING. */
    @Test
    void bansOfOtherMembersBeyondTheBoundAreLeftOut() throws Exception {
        try (CapturedLog log = CapturedLog.of(Bans.class)) {
            Bans small = open(0, 2);
            List<String> storeKeys = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                String key = "client-" + UUID.randomUUID();
                storeKeys.add(BucketKeys.of("r", key));
                limiters.get(1).check(rule, key, 1);
                limiters.get(1).check(rule, key, 1);
                limiters.get(1).check(rule, key, 1);
            }
            assertThat(started).as("bans started on member 1").hasSize(4);
            Await.until("member 0's unbounded copy of the 4 bans", Duration.ofSeconds(30),
                    () -> storeKeys.stream().allMatch(storeKey -> bans.get(0).leftMicros(storeKey) > 0));
            Await.until("the WARNING", Duration.ofSeconds(30), () -> !log.at(Level.WARNING).isEmpty());
            assertThat(small.size()).as("the bounded copy").isEqualTo(2);
            assertThat(log.at(Level.WARNING).get(0).getMessage()).contains("tollgate.bans.max-entries=2", "rule(s) 'r'", "left out");
        }
    }

    @Test
    void denialsFromEveryMemberCountOnceEachAndStartOneBan() throws Exception {
        RuleConfig tenDenials = TestRules.read(Map.of("tollgate.rules.t.rate", "1/1h", "tollgate.rules.t.burst", "1",
                "tollgate.rules.t.ban-after", "10/1h", "tollgate.rules.t.ban-for", "10m")).rule("t");
        String key = "client-" + UUID.randomUUID();
        assertThat(limiters.get(0).check(tenDenials, key, 1).allowed()).isTrue();
        for (int i = 0; i < 9; i++) {
            assertThat(limiters.get(i % 3).check(tenDenials, key, 1).banned()).isFalse();
        }
        assertThat(started).as("9 denials on 3 members").isEmpty();
        limiters.get(1).check(tenDenials, key, 1);
        assertThat(started).as("the tenth").containsExactly("1:" + key);

        String hot = "hot-" + UUID.randomUUID();
        limiters.get(0).check(tenDenials, hot, 1);
        deniedAtOnceOnEveryMember(tenDenials, hot);
        assertThat(started.stream().filter(ban -> ban.endsWith(":" + hot))).as("60 concurrent denials, one ban").hasSize(1);
    }

    /** Sixty requests of {@code key}, twelve at a time, spread over the three members: each one denied. */
    private void deniedAtOnceOnEveryMember(RuleConfig limited, String key) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(12);
        try {
            List<Future<Decision>> decisions = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                Limiter limiter = limiters.get(i % 3);
                decisions.add(threads.submit(() -> limiter.check(limited, key, 1)));
            }
            for (Future<Decision> decision : decisions) {
                assertThat(decision.get(60, TimeUnit.SECONDS).allowed()).isFalse();
            }
        } finally {
            threads.shutdownNow();
        }
    }
}
