package io.tollgate.internal.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.map.IMap;
import io.tollgate.Decision;
import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.config.TollgateConfig;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.limiter.Limiter;
import io.tollgate.internal.store.BucketStore;
import io.tollgate.internal.store.StoreStack;
import io.tollgate.testing.JvmCluster;
import io.tollgate.testing.LedgerAudit;
import io.tollgate.testing.MemberProcess;
import io.tollgate.testing.TestRules;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Members in JVMs of their own die ({@code kill -9}), join, leave and freeze while this JVM's member
 * decides under load, with Tollgate's whole store stack (coalescing, denial cache, timeout). Counted:
 * no request fails other than by its rule's {@code on-store-failure} policy, the hot key never grants
 * more than {@code burst + rate × elapsed}, and no per-user bucket loses its state.
 */
@Tag("hazelcast")
class MemberFaultTest {

    private static final Duration TIMEOUT = Duration.ofMillis(250);
    /**
     * For what sets a test up, and for decisions that must be the store's while a member is frozen: long
     * enough for a busy machine, shorter than the 5 s a write waits for a frozen backup.
     */
    private static final Duration PATIENT = Duration.ofSeconds(2);
    private static final int USERS = 200;
    private static final long USER_BURST = 1_000_000;
    private static final int THREADS = 12;
    private static final long MAX_DECISIONS_PER_THREAD = 500_000;

    private final TollgateConfig config = TestRules.read(Map.of(
            "tollgate.rules.hot.rate", "10",
            "tollgate.rules.hot.burst", "10",
            "tollgate.rules.hot.on-store-failure", "deny",
            "tollgate.rules.user.rate", "1/1h",
            "tollgate.rules.user.burst", String.valueOf(USER_BURST),
            "tollgate.rules.user.on-store-failure", "allow",
            "tollgate.rules.frozen.rate", "1/1h",
            "tollgate.rules.frozen.burst", "10",
            "tollgate.rules.frozen.on-store-failure", "deny"));
    private final RuleConfig hot = config.rule("hot");
    private final RuleConfig user = config.rule("user");

    @Test
    void aMemberKilledUnderLoadLosesNoBucketAndGrantsNothingExtra() throws Exception {
        try (JvmCluster cluster = JvmCluster.start(3, 0)) {
            String hotKey = keyOwnedByAnotherJvm(cluster, hot);
            MemberProcess victim = cluster.ownerOf(BucketKeys.of(hot.name(), hotKey));
            Load load = new Load(cluster, hotKey);
            load.start();
            TimeUnit.SECONDS.sleep(3);
            victim.kill();
            load.finishAfter(Duration.ofSeconds(7));
            cluster.awaitSize(3);
            load.report("kill -9 of the hot key's owner (1 of 4 members)");
        }
    }

    @Test
    void membersJoiningAndLeavingUnderLoadLoseNoBucketAndGrantNothingExtra() throws Exception {
        try (JvmCluster cluster = JvmCluster.start(2, 1)) {
            String hotKey = keyOwnedByAnotherJvm(cluster, hot);
            Load load = new Load(cluster, hotKey);
            load.start();
            TimeUnit.SECONDS.sleep(2);
            cluster.addMember(); // partitions migrate to it
            cluster.awaitSize(4);
            cluster.process(0).shutdown(); // and away from the one that leaves
            load.finishAfter(Duration.ofSeconds(3));
            cluster.awaitSize(3);
            load.report("a member joined, then one left gracefully (2 → 4 → 3 members)");
        }
    }

    @Test
    void aFrozenOwnerIsAnsweredByThePolicyWithinTheTimeoutAndNothingIsChargedLate() throws Exception {
        RuleConfig frozen = config.rule("frozen");
        try (JvmCluster cluster = JvmCluster.start(2, 0)) {
            BucketStore store = productionStack(cluster);
            store.warmUp(frozen.bucket()); // as a deployment does: every member has answered once
            Limiter limiter = new Limiter(store, TIMEOUT);
            Limiter patient = patientLimiter(cluster);
            String key;
            MemberProcess owner;
            String elsewhere;
            for (int attempt = 1; ; attempt++) {
                key = key(frozen, "frozen" + attempt + "-", stored -> cluster.ownerOf(stored) != null);
                owner = cluster.ownerOf(BucketKeys.of(frozen.name(), key));
                elsewhere = keyAwayFrom(cluster, frozen, owner);
                for (int i = 0; i < 3; i++) {
                    assertThat(patient.check(frozen, key, 1).allowed()).isTrue();
                }
                owner.freeze();
                // a migration that ended after the key was chosen leaves it with a member that still answers: the
                // frozen member cannot give a partition away, so once it still owns the key after the freeze it
                // keeps it; otherwise thaw it and choose again (a fresh key: this one's tokens are spent)
                if (cluster.ownerOf(BucketKeys.of(frozen.name(), key)) == owner) {
                    break;
                }
                owner.thaw();
                System.out.println("frozen owner: the key's partition moved before the freeze (attempt " + attempt + "); another key");
                assertThat(attempt).as("attempts to freeze the owner of a key before its partition moves").isLessThan(5);
                cluster.awaitSize(3);
            }
            List<Long> latencies = new ArrayList<>();
            try {
                for (int i = 0; i < 6; i++) {
                    long start = System.nanoTime();
                    Decision decision = limiter.check(frozen, key, 1);
                    latencies.add(System.nanoTime() - start);
                    assertThat(decision.storeUnavailable()).as("decision %d while the owner is frozen", i).isTrue();
                    assertThat(decision.allowed()).as("on-store-failure=deny").isFalse();
                    // a key whose owner and backup are other members is decided as usual meanwhile (by the
                    // store: without waiting for the frozen member, which would take longer than PATIENT)
                    assertThat(patient.check(frozen, elsewhere, 1).storeUnavailable()).isFalse();
                }
            } finally {
                owner.thaw();
            }
            Decision recovered = awaitStore(limiter, frozen, key);
            assertThat(cluster.ownerOf(BucketKeys.of(frozen.name(), key))).as("the bucket stayed where it was").isSameAs(owner);
            System.out.printf("frozen owner: 6 decisions answered by the policy, slowest %d ms (timeout %d ms); "
                    + "after the thaw %d of 10 tokens left (3 charged before)%n",
                    latencies.stream().mapToLong(Long::longValue).max().orElseThrow() / 1_000_000, TIMEOUT.toMillis(),
                    recovered.remaining());
            assertThat(recovered.storeUnavailable()).as("the limiter recovers by itself").isFalse();
            // the decisions the frozen owner received but only got to after their deadline were dropped
            assertThat(recovered.remaining()).isEqualTo(7);
        }
    }

    @Test
    void aMemberCutOffFromAllOthersAnswersByThePolicyAndRecoversByItself() throws Exception {
        RuleConfig frozen = config.rule("frozen");
        try (JvmCluster cluster = JvmCluster.start(2, 0)) {
            BucketStore store = productionStack(cluster);
            store.warmUp(frozen.bucket());
            Limiter limiter = new Limiter(store, TIMEOUT);
            Limiter patient = patientLimiter(cluster);
            IMap<String, long[]> map = cluster.local().getMap(BucketMapConfig.DEFAULT_MAP_NAME);
            String remote;
            String local;
            String localStoreKey;
            long[] localBefore;
            for (int attempt = 1; ; attempt++) {
                remote = key(frozen, "cut" + attempt + "-remote-", stored -> cluster.ownerOf(stored) != null);
                local = key(frozen, "cut" + attempt + "-local-", stored -> cluster.ownerOf(stored) == null);
                for (String key : List.of(remote, local)) {
                    assertThat(patient.check(frozen, key, 1).allowed()).isTrue();
                }
                localStoreKey = BucketKeys.of(frozen.name(), local);
                localBefore = map.get(localStoreKey);
                cluster.process(0).freeze();
                cluster.process(1).freeze();
                // frozen members give no partition away: if both keys are still where they were chosen, they stay
                if (cluster.ownerOf(BucketKeys.of(frozen.name(), remote)) != null && cluster.ownerOf(localStoreKey) == null) {
                    break;
                }
                cluster.process(0).thaw();
                cluster.process(1).thaw();
                System.out.println("member cut off: a key's partition moved before the freeze (attempt " + attempt + "); other keys");
                assertThat(attempt).as("attempts to freeze the others before a key's partition moves").isLessThan(5);
                cluster.awaitSize(3);
            }
            boolean localFirstApplied;
            long slowest = 0;
            try {
                for (int i = 0; i < 3; i++) {
                    for (String key : List.of(remote, local)) { // a local key waits for its backup on a frozen member
                        long start = System.nanoTime();
                        Decision decision = limiter.check(frozen, key, 1);
                        slowest = Math.max(slowest, System.nanoTime() - start);
                        assertThat(decision.storeUnavailable()).as("%s, while cut off", key).isTrue();
                        assertThat(decision.allowed()).as("on-store-failure=deny").isFalse();
                    }
                }
                // whether this member got to the first decision on its own key before its deadline (it
                // almost always does: only the backup waits), read from its own copy, which needs no other member
                localFirstApplied = !Arrays.equals(map.get(localStoreKey), localBefore);
            } finally {
                cluster.process(0).thaw();
                cluster.process(1).thaw();
            }
            Decision remoteAfter = awaitStore(limiter, frozen, remote);
            Decision localAfter = awaitStore(limiter, frozen, local);
            System.out.printf("member cut off from both others: 6 decisions answered by the policy, slowest %d ms "
                    + "(timeout %d ms); afterwards %d tokens left on the remote key, %d on the local one (10 each, 1 charged "
                    + "before; the first on the local key %s)%n", slowest / 1_000_000, TIMEOUT.toMillis(), remoteAfter.remaining(),
                    localAfter.remaining(), localFirstApplied ? "applied in time" : "reached the owner after its deadline");
            assertThat(remoteAfter.storeUnavailable()).as("the limiter recovers by itself").isFalse();
            assertThat(localAfter.storeUnavailable()).as("the limiter recovers by itself").isFalse();
            // the remote owner got to the three only after their deadline, and dropped them
            assertThat(remoteAfter.remaining()).isEqualTo(9);
            // this member applied the first to its own key at once (only its backup waited): charged, toward denying;
            // the two queued behind it left after their deadline, and were dropped
            assertThat(localAfter.remaining()).isEqualTo(localFirstApplied ? 8 : 9);
        }
    }

    /** Asks (cost 0) until the store answers again, for at most 60 s. */
    private static Decision awaitStore(Limiter limiter, RuleConfig rule, String key) throws InterruptedException {
        Decision decision = limiter.check(rule, key, 0);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (decision.storeUnavailable() && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(100);
            decision = limiter.check(rule, key, 0);
        }
        return decision;
    }

    /** Decides through a store of its own whose deadline and wait are {@link #PATIENT}. */
    private static Limiter patientLimiter(JvmCluster cluster) {
        return new Limiter(new HazelcastBucketStore(cluster.local(), BucketMapConfig.DEFAULT_MAP_NAME, true, PATIENT), PATIENT);
    }

    private BucketStore productionStack(JvmCluster cluster) {
        HazelcastBucketStore hazelcast = new HazelcastBucketStore(cluster.local(), BucketMapConfig.DEFAULT_MAP_NAME, true, TIMEOUT);
        return new StoreStack(true, 10_000).over(hazelcast);
    }

    private static String keyOwnedByAnotherJvm(JvmCluster cluster, RuleConfig rule) {
        return key(rule, "key-", stored -> cluster.ownerOf(stored) != null);
    }

    /** A key that {@code member} neither owns nor backs up. */
    private static String keyAwayFrom(JvmCluster cluster, RuleConfig rule, MemberProcess member) {
        return key(rule, "elsewhere-", stored -> cluster.ownerOf(stored) != member && cluster.backupOf(stored) != member);
    }

    /** @return the first of {@code prefix0, prefix1, ...} whose bucket's store key passes {@code where} */
    private static String key(RuleConfig rule, String prefix, Predicate<String> where) {
        for (int i = 0; ; i++) {
            if (where.test(BucketKeys.of(rule.name(), prefix + i))) {
                return prefix + i;
            }
        }
    }

    /**
     * Threads deciding, one in four on the hot key (burst 10, 10/s, fail closed) and the rest on one of
     * {@value #USERS} per-user keys (a million tokens, fail open), until told to stop.
     */
    private final class Load {
        private final JvmCluster cluster;
        private final String hotKey;
        private final Limiter limiter;
        private final BucketStore store;
        private final List<Thread> threads = new ArrayList<>();
        private final AtomicLong hotAllowed = new AtomicLong();
        private final AtomicLong hotUnavailable = new AtomicLong();
        private final AtomicLong userUnavailable = new AtomicLong();
        private final AtomicLong decisions = new AtomicLong();
        private final AtomicLong policyViolations = new AtomicLong();
        private final AtomicLongArray userAllowed = new AtomicLongArray(USERS);
        private final AtomicReference<Throwable> error = new AtomicReference<>();
        private volatile boolean stop;
        private long startNanos;
        private long elapsedNanos;

        Load(JvmCluster cluster, String hotKey) {
            this.cluster = cluster;
            this.hotKey = hotKey;
            this.store = productionStack(cluster);
            this.limiter = new Limiter(store, TIMEOUT);
        }

        void start() {
            startNanos = System.nanoTime();
            for (int t = 0; t < THREADS; t++) {
                Thread thread = new Thread(this::run, "load-" + t);
                threads.add(thread);
                thread.start();
            }
        }

        private void run() {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            try {
                for (long i = 0; i < MAX_DECISIONS_PER_THREAD && !stop; i++) {
                    decisions.incrementAndGet();
                    if (i % 4 == 0) {
                        Decision decision = limiter.check(hot, hotKey, 1);
                        if (decision.storeUnavailable()) {
                            hotUnavailable.incrementAndGet();
                            if (decision.allowed()) {
                                policyViolations.incrementAndGet();
                            }
                        } else if (decision.allowed()) {
                            hotAllowed.incrementAndGet();
                        }
                    } else {
                        int u = random.nextInt(USERS);
                        Decision decision = limiter.check(user, "user-" + u, 1);
                        if (decision.storeUnavailable()) {
                            userUnavailable.incrementAndGet();
                            if (!decision.allowed()) {
                                policyViolations.incrementAndGet();
                            }
                        } else if (decision.allowed()) {
                            userAllowed.incrementAndGet(u);
                        }
                    }
                }
            } catch (Throwable e) {
                error.compareAndSet(null, e);
            }
        }

        void finishAfter(Duration more) throws InterruptedException {
            TimeUnit.NANOSECONDS.sleep(more.toNanos());
            stop = true;
            for (Thread thread : threads) {
                thread.join(TimeUnit.SECONDS.toMillis(60));
            }
            elapsedNanos = System.nanoTime() - startNanos;
        }

        /** Prints and checks the figures, once the cluster has settled. */
        void report(String what) throws Exception {
            assertThat(threads).noneMatch(Thread::isAlive);
            assertThat(error.get()).as("no decision threw").isNull();
            double seconds = elapsedNanos / 1e9;
            long hotLimit = 10 + (long) Math.floor(10 * seconds);
            LedgerAudit users = LedgerAudit.of(new HazelcastBucketStore(cluster.local(), BucketMapConfig.DEFAULT_MAP_NAME, true),
                    user, "user-", userAllowed, USER_BURST);
            System.out.printf("%s: %,d decisions in %.1f s by %d threads; hot key %d allowed (limit %d = 10 + 10/s × %.1f s), "
                    + "%d answered by fail-closed; users %,d allowed, %,d answered by fail-open; "
                    + "%d of %d user buckets exact, %d tokens lost, %d charged for answers that did not arrive in time; "
                    + "policy violations %d%n",
                    what, decisions.get(), seconds, THREADS, hotAllowed.get(), hotLimit, seconds, hotUnavailable.get(),
                    users.granted(), userUnavailable.get(), users.exact(), USERS, users.lost(), users.chargedUnseen(),
                    policyViolations.get());
            assertThat(policyViolations.get()).as("answers that broke the rule's on-store-failure policy").isZero();
            assertThat(hotAllowed.get()).as("hot key allowed").isLessThanOrEqualTo(hotLimit).isGreaterThanOrEqualTo(10);
            assertThat(users.lost()).as("tokens given back by a lost bucket").isZero();
            store.close();
        }
    }
}
