package io.tollgate.bench;

import com.hazelcast.core.HazelcastInstance;
import io.tollgate.Decision;
import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.config.TollgateConfig;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.hazelcast.BucketMapConfig;
import io.tollgate.internal.hazelcast.HazelcastBucketStore;
import io.tollgate.internal.limiter.Limiter;
import io.tollgate.internal.store.BucketStore;
import io.tollgate.internal.store.StoreStack;
import io.tollgate.testing.LedgerAudit;
import io.tollgate.testing.TestRules;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The soak run: minutes of mixed load on a 3-member cluster in this JVM, deciding from every member
 * through Tollgate's whole stack (coalescing, denial cache, 250 ms timeout), then the counts checked
 * and the memory compared over time. Writes {@code soak.md} to the results directory ({@code src/jmh/results}); exits 1 if a count is
 * wrong or memory kept growing.
 *
 * <pre>
 * Soak [minutes (10)] [threads (16)]
 * </pre>
 *
 * The mix, per decision: 10% one of 4 hot keys (burst 50, 100/s); 55% one of 100 000 users (burst
 * 10, 2/s, cost 1 to 3: their buckets expire and come back); 25% one of 1 000 ledger keys (a million
 * tokens, refilled once a day: what they hold must match what was granted); 10% one of 1 000 keys
 * under two limits (20 at once, 10/s and 300/min).
 */
public final class Soak {

    private static final int HOT = 4;
    private static final int USERS = 100_000;
    private static final int LEDGERS = 1_000;
    private static final long LEDGER_BURST = 1_000_000;
    private static final int TIERED = 1_000;
    private static final Duration TIMEOUT = Duration.ofMillis(250);
    private static final long SAMPLE_SECONDS = 30;

    private final long nanos;
    private final int threads;
    private final TollgateConfig config = TestRules.read(Map.ofEntries(
            Map.entry("tollgate.rules.hot.rate", "100"),
            Map.entry("tollgate.rules.hot.burst", "50"),
            Map.entry("tollgate.rules.hot.on-store-failure", "deny"),
            Map.entry("tollgate.rules.user.rate", "2"),
            Map.entry("tollgate.rules.user.burst", "10"),
            Map.entry("tollgate.rules.ledger.rate", "1/1d"),
            Map.entry("tollgate.rules.ledger.burst", String.valueOf(LEDGER_BURST)),
            Map.entry("tollgate.rules.tiered.limits", "10/s burst 20, 300/1m")));
    private final RuleConfig hot = config.rule("hot");
    private final RuleConfig user = config.rule("user");
    private final RuleConfig ledger = config.rule("ledger");
    private final RuleConfig tiered = config.rule("tiered");

    private final AtomicLongArray hotGranted = new AtomicLongArray(HOT);
    private final AtomicLongArray userGranted = new AtomicLongArray(USERS);
    private final AtomicLongArray ledgerGranted = new AtomicLongArray(LEDGERS);
    private final AtomicLongArray tieredGranted = new AtomicLongArray(TIERED);
    private final AtomicLong decisions = new AtomicLong();
    private final AtomicLong policyAnswers = new AtomicLong();
    private final AtomicReference<Throwable> error = new AtomicReference<>();
    private final List<String> samples = new ArrayList<>();
    private final List<Double> heapSamples = new ArrayList<>();

    private Soak(long minutes, int threads) {
        this.nanos = TimeUnit.MINUTES.toNanos(minutes);
        this.threads = threads;
    }

    public static void main(String[] args) throws Exception {
        long minutes = args.length > 0 ? Long.parseLong(args[0]) : 10;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 16;
        boolean passed;
        try (BenchCluster cluster = new BenchCluster(3, 5950)) {
            passed = new Soak(minutes, threads).run(cluster);
        }
        System.exit(passed ? 0 : 1);
    }

    private boolean run(BenchCluster cluster) throws Exception {
        List<Limiter> limiters = new ArrayList<>();
        List<BucketStore> stores = new ArrayList<>();
        for (HazelcastInstance member : cluster.members) {
            BucketStore store = StoreStack.DEFAULT.over(
                    new HazelcastBucketStore(member, BucketMapConfig.DEFAULT_MAP_NAME, true, TIMEOUT));
            stores.add(store);
            limiters.add(new Limiter(store, TIMEOUT));
        }
        long start = System.nanoTime();
        long deadline = start + nanos;
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Limiter limiter = limiters.get(t % limiters.size());
            Thread worker = new Thread(() -> work(limiter, deadline), "soak-" + t);
            workers.add(worker);
            worker.start();
        }
        sample(cluster, start);
        while (System.nanoTime() < deadline) {
            TimeUnit.NANOSECONDS.sleep(Math.min(TimeUnit.SECONDS.toNanos(SAMPLE_SECONDS), Math.max(1, deadline - System.nanoTime())));
            sample(cluster, start);
        }
        for (Thread worker : workers) {
            worker.join(TimeUnit.MINUTES.toMillis(1));
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        boolean passed = report(cluster, seconds);
        stores.forEach(BucketStore::close);
        return passed;
    }

    private void work(Limiter limiter, long deadline) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        try {
            while (System.nanoTime() < deadline) {
                int dice = random.nextInt(100);
                if (dice < 10) {
                    int k = random.nextInt(HOT);
                    count(limiter.check(hot, "hot-" + k, 1), hotGranted, k);
                } else if (dice < 65) {
                    int u = random.nextInt(USERS);
                    count(limiter.check(user, "user-" + u, 1 + random.nextInt(3)), userGranted, u);
                } else if (dice < 90) {
                    int l = random.nextInt(LEDGERS);
                    count(limiter.check(ledger, "ledger-" + l, 1), ledgerGranted, l);
                } else {
                    int k = random.nextInt(TIERED);
                    count(limiter.check(tiered, "tiered-" + k, 1), tieredGranted, k);
                }
            }
        } catch (Throwable e) {
            error.compareAndSet(null, e);
        }
    }

    private void count(Decision decision, AtomicLongArray granted, int index) {
        decisions.incrementAndGet();
        if (decision.storeUnavailable()) {
            policyAnswers.incrementAndGet();
        } else if (decision.allowed()) {
            granted.addAndGet(index, decision.cost());
        }
    }

    private void sample(BenchCluster cluster, long start) {
        System.gc();
        double heapMb = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1e6;
        long entries = 0;
        for (HazelcastInstance member : cluster.members) {
            entries += member.getMap(BucketMapConfig.DEFAULT_MAP_NAME).getLocalMapStats().getOwnedEntryCount();
        }
        long elapsed = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        String line = String.format(Locale.ROOT, "| %d:%02d | %,d | %,d | %.0f |", elapsed / 60, elapsed % 60, decisions.get(), entries, heapMb);
        System.out.println("soak " + line);
        samples.add(line);
        heapSamples.add(heapMb);
    }

    private boolean report(BenchCluster cluster, double seconds) throws Exception {
        List<String> problems = new ArrayList<>();
        if (error.get() != null) {
            problems.add("a decision threw: " + error.get());
        }
        long hotMost = most(hotGranted);
        long hotBound = 50 + (long) Math.floor(100 * seconds);
        if (hotMost > hotBound) {
            problems.add("a hot key granted " + hotMost + " tokens, more than " + hotBound);
        }
        long userBound = 10 + (long) Math.floor(2 * seconds);
        long userMost = most(userGranted);
        if (userMost > userBound) {
            problems.add("a user was granted " + userMost + " tokens, more than " + userBound);
        }
        long tieredBound = Math.min(20 + (long) Math.floor(10 * seconds), 300 + (long) Math.floor(300 * seconds / 60));
        long tieredMost = most(tieredGranted);
        if (tieredMost > tieredBound) {
            problems.add("a two-limit key granted " + tieredMost + " tokens, more than " + tieredBound);
        }
        LedgerAudit ledgers = LedgerAudit.of(new HazelcastBucketStore(cluster.members.get(0), BucketMapConfig.DEFAULT_MAP_NAME, true),
                ledger, "ledger-", ledgerGranted, LEDGER_BURST);
        if (ledgers.lost() > 0) {
            problems.add(ledgers.lost() + " ledger tokens came back: a bucket lost its state");
        }
        // steady memory: the last quarter of the run holds no more than the second quarter, give or take 25%
        int quarter = Math.max(1, heapSamples.size() / 4);
        double early = heapSamples.subList(quarter, Math.min(heapSamples.size(), 2 * quarter)).stream().mapToDouble(d -> d).average().orElse(0);
        double late = heapSamples.subList(heapSamples.size() - quarter, heapSamples.size()).stream().mapToDouble(d -> d).average().orElse(0);
        boolean steady = late <= early * 1.25;
        if (!steady) {
            problems.add(String.format(Locale.ROOT, "heap after GC grew from %.0f MB to %.0f MB", early, late));
        }

        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "Soak: %.1f minutes, %d threads on a 3-member cluster in one JVM, %,d decisions (%,.0f/s), "
                + "%,d answered by on-store-failure.%n%n", seconds / 60, threads, decisions.get(), decisions.get() / seconds, policyAnswers.get()));
        md.append("| Keys | Most granted to one key | Bound (burst + rate × elapsed) |\n|---|---:|---:|\n");
        md.append(String.format(Locale.ROOT, "| 4 hot keys (burst 50, 100/s) | %,d | %,d |%n", hotMost, hotBound));
        md.append(String.format(Locale.ROOT, "| 100 000 users (burst 10, 2/s, cost 1-3) | %,d | %,d |%n", userMost, userBound));
        md.append(String.format(Locale.ROOT, "| 1 000 keys under 20 at once + 10/s, 300/min | %,d | %,d |%n%n", tieredMost, tieredBound));
        md.append(String.format(Locale.ROOT, "Ledger: %,d tokens granted over 1 000 keys; %d of 1 000 buckets hold exactly what was not granted, "
                + "%d tokens lost, %d charged for answers that came after the timeout.%n%n", ledgers.granted(), ledgers.exact(),
                ledgers.lost(), ledgers.chargedUnseen()));
        md.append("| Elapsed | Decisions | Buckets in the map | Heap after GC (MB) |\n|---:|---:|---:|---:|\n");
        samples.forEach(line -> md.append(line).append('\n'));
        md.append(String.format(Locale.ROOT, "%nHeap after GC: %.0f MB in the second quarter of the run, %.0f MB in the last (%s).%n",
                early, late, steady ? "steady" : "GROWING"));
        md.append(problems.isEmpty() ? "\nEvery count within its bound.\n" : "\nPROBLEMS:\n- " + String.join("\n- ", problems) + "\n");
        Files.createDirectories(Suite.RESULTS);
        Files.writeString(Suite.RESULTS.resolve("soak.md"), md);
        System.out.println(md);
        return problems.isEmpty();
    }

    /** @return the most granted to one key */
    private static long most(AtomicLongArray granted) {
        long most = 0;
        for (int i = 0; i < granted.length(); i++) {
            most = Math.max(most, granted.get(i));
        }
        return most;
    }
}
