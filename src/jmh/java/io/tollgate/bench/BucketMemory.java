package io.tollgate.bench;

import com.hazelcast.config.Config;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.map.LocalMapStats;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConfigurationBuilder;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.internal.hazelcast.BucketMapConfig;
import io.tollgate.internal.hazelcast.HazelcastBucketStore;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Heap per stored bucket, on its owner and on its backup: a three-member cluster in this JVM, {@code keys} decisions
 * on as many keys, each implementation into a map of its own, and the heap after full GCs before and after, divided by
 * the keys. Tollgate with one limit and with three (a rule's several rates), Bucket4j with the same.
 *
 * <p>The members share this heap, so one heap figure holds every copy of a bucket; the two copies are told apart by
 * running each store twice: on a map with no backup (the owner's copy alone: what it takes on its owner) and on a map
 * with one synchronous backup, as Tollgate configures its map (owner and backup: what it costs the cluster). The
 * backup's copy is the second less the first. Both maps have Tollgate's settings otherwise
 * ({@link BucketMapConfig#create}, values as objects; Bucket4j's map gets them too), and each run checks, in the
 * members' {@link LocalMapStats}, that the map holds {@code keys} owned entries and {@code keys} × its backups backup
 * entries. Hazelcast's own estimate of an entry's cost in those statistics cannot cross-check the heap: it is made
 * only for maps in BINARY format and is 0 for these.
 *
 * <p>Rounds interleave the eight runs (forwards, then backwards); each figure is the median of the rounds', with their
 * spread. The backup's figure is a difference taken within each round, so the medians of the three columns need not
 * add up exactly.
 *
 * <p>{@code java ... io.tollgate.bench.BucketMemory [keys] [rounds] [report.md]}
 */
public final class BucketMemory {

    private static final int BASE_PORT = 5975;
    /** Tollgate's map and Bucket4j's with no backup: the owner's copy alone. */
    private static final String TOLLGATE_OWNER_ONLY_MAP = Impl.TOLLGATE_MAP + "-owner-only";
    private static final String BUCKET4J_OWNER_ONLY_MAP = Impl.BUCKET4J_MAP + "-owner-only";
    private static final int MAX_ENTRIES_PER_MEMBER = 1_000_000; // BenchCluster's, for every map
    private static final List<Variant> VARIANTS = List.of(
            new Variant("tollgate, 1 limit", Impl.TOLLGATE_PLAIN, false),
            new Variant("bucket4j, 1 limit", Impl.BUCKET4J, false),
            new Variant("tollgate, 3 limits", Impl.TOLLGATE_PLAIN, true),
            new Variant("bucket4j, 3 limits", Impl.BUCKET4J, true));

    private record Variant(String name, Impl impl, boolean threeLimits) {

        /** @return the map this store writes to with {@code backups} backups (0 or 1) */
        String map(int backups) {
            if (impl == Impl.BUCKET4J) {
                return backups == 0 ? BUCKET4J_OWNER_ONLY_MAP : Impl.BUCKET4J_MAP;
            }
            return backups == 0 ? TOLLGATE_OWNER_ONLY_MAP : Impl.TOLLGATE_MAP;
        }
    }

    /** One run: a store on the map with so many backups. */
    private record Run(Variant variant, int backups) {
    }

    private BucketMemory() {
    }

    public static void main(String[] args) throws Exception {
        int keys = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Path report = args.length > 2 ? Path.of(args[2]) : null;
        List<Run> runs = new ArrayList<>();
        for (Variant variant : VARIANTS) {
            runs.add(new Run(variant, 0));
            runs.add(new Run(variant, 1));
        }
        List<List<Double>> owner = new ArrayList<>();
        List<List<Double>> backup = new ArrayList<>();
        List<List<Double>> both = new ArrayList<>();
        for (int v = 0; v < VARIANTS.size(); v++) {
            owner.add(new ArrayList<>());
            backup.add(new ArrayList<>());
            both.add(new ArrayList<>());
        }
        try (BenchCluster cluster = new BenchCluster(3, BASE_PORT, BucketMemory::configureMember)) {
            for (int round = 0; round < rounds; round++) {
                double[][] bytes = new double[VARIANTS.size()][2];
                for (int r = 0; r < runs.size(); r++) {
                    Run run = runs.get(round % 2 == 0 ? r : runs.size() - 1 - r); // interleaved
                    double perBucket = measure(cluster.members, run, keys, round);
                    bytes[VARIANTS.indexOf(run.variant())][run.backups()] = perBucket;
                    System.out.printf(Locale.ROOT, "round %d, %s, %d backup%s: %.0f bytes per bucket%n", round + 1,
                            run.variant().name(), run.backups(), run.backups() == 1 ? "" : "s", perBucket);
                }
                for (int v = 0; v < VARIANTS.size(); v++) {
                    owner.get(v).add(bytes[v][0]);
                    backup.get(v).add(bytes[v][1] - bytes[v][0]);
                    both.get(v).add(bytes[v][1]);
                    System.out.printf(Locale.ROOT, "round %d, %s: owner %.0f, backup %.0f, both %.0f bytes%n", round + 1,
                            VARIANTS.get(v).name(), bytes[v][0], bytes[v][1] - bytes[v][0], bytes[v][1]);
                }
            }
        }
        StringBuilder md = new StringBuilder(String.format(Locale.ROOT, "Heap per stored bucket, on its owner and on its "
                + "backup (3 members in one JVM; %,d keys per run, %d round%s; median, min–max). Owner copy: the heap "
                + "a map with no backup takes per key. Backup copy: what the same map with one synchronous backup "
                + "(Tollgate's setting) takes more, within each round. Owner + backup: the map with one backup, measured. "
                + "Each run writes a bucket in every partition before the first heap reading, so what a map costs "
                + "however few buckets it holds is left out; the members' map statistics confirmed the keys as owned "
                + "entries and, with the backup, as many backup entries (Hazelcast's own entry memory cost there is 0 "
                + "for maps in OBJECT format, so it cannot cross-check these figures). 10 million keys: owner + backup "
                + "× 10 million for the cluster, a third of it on each member (each owns a third of the keys and backs "
                + "up another third).%n%n", keys, rounds, rounds == 1 ? "" : "s"));
        md.append("| Store | Owner copy (B) | Backup copy (B) | Owner + backup (B) | 10 million keys: cluster of three "
                + "| per member |\n|---|---:|---:|---:|---:|---:|\n");
        for (int v = 0; v < VARIANTS.size(); v++) {
            double total = median(both.get(v)) * 10_000_000 / 1e9;
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %.2f GB | %.2f GB |%n", VARIANTS.get(v).name(),
                    spread(owner.get(v)), spread(backup.get(v)), spread(both.get(v)), total, total / 3));
        }
        System.out.println(md);
        if (report != null) {
            Files.writeString(report, md);
        }
    }

    /**
     * Each member's configuration: that of the comparison ({@link Impl#configureMember}; Tollgate's map settings for
     * every other map, which {@link BenchCluster} adds, with one backup), and the two maps with none.
     */
    private static void configureMember(Config config) {
        Impl.configureMember(config);
        for (String name : List.of(TOLLGATE_OWNER_ONLY_MAP, BUCKET4J_OWNER_ONLY_MAP)) {
            config.addMapConfig(BucketMapConfig.create(name, MAX_ENTRIES_PER_MEMBER, 1).setBackupCount(0));
        }
    }

    /**
     * @return the heap the map's {@code keys} new buckets take, per bucket; the map is destroyed after. What the map
     *         costs whatever it holds (a record store for each partition on its owner and its backup, the limiter
     *         itself) is in the heap before: a bucket in every partition is written first
     */
    private static double measure(List<HazelcastInstance> members, Run run, int keys, int round) throws Exception {
        HazelcastInstance caller = members.get(0);
        String mapName = run.variant().map(run.backups());
        try (ComparedLimiter limiter = open(caller, run.variant(), mapName)) {
            int warm = fillEveryPartition(caller, limiter, run);
            long before = heapAfterGc();
            for (int i = 0; i < keys; i++) {
                acquire(limiter, "user-" + round + "-" + i, run);
            }
            IMap<?, ?> map = caller.getMap(mapName);
            if (map.size() != warm + keys) {
                throw new IllegalStateException(run + ": " + map.size() + " buckets stored, not " + (warm + keys));
            }
            checkCopies(members, mapName, warm + keys, run.backups());
            long after = heapAfterGc();
            map.destroy();
            return (after - before) / (double) keys;
        }
    }

    /** @return how many keys were written, one at least in each partition */
    private static int fillEveryPartition(HazelcastInstance caller, ComparedLimiter limiter, Run run) throws Exception {
        int partitions = caller.getPartitionService().getPartitions().size();
        Set<Integer> filled = new HashSet<>();
        int written = 0;
        while (filled.size() < partitions) {
            String key = "warm-" + written++;
            acquire(limiter, key, run);
            filled.add(caller.getPartitionService().getPartition(key).getPartitionId());
        }
        return written;
    }

    private static void acquire(ComparedLimiter limiter, String key, Run run) throws Exception {
        if (!limiter.tryAcquire(key, 1)) {
            throw new IllegalStateException("a first decision was a denial: " + run);
        }
    }

    /** Fails unless the members hold, together, {@code keys} owned entries and {@code keys × backups} backups. */
    private static void checkCopies(List<HazelcastInstance> members, String mapName, int keys, int backups) {
        long owned = 0;
        long backedUp = 0;
        for (HazelcastInstance member : members) {
            LocalMapStats stats = member.getMap(mapName).getLocalMapStats();
            owned += stats.getOwnedEntryCount();
            backedUp += stats.getBackupEntryCount();
        }
        if (owned != keys || backedUp != (long) keys * backups) {
            throw new IllegalStateException(mapName + ": " + owned + " owned entries and " + backedUp
                    + " backups, not " + keys + " and " + (long) keys * backups);
        }
    }

    /**
     * Limits whose buckets outlive the run (a token back in hours, so no bucket expires while it is measured): 10 a
     * day; with three limits also 50 a week and 150 a month.
     */
    private static ComparedLimiter open(HazelcastInstance caller, Variant variant, String mapName) {
        List<Limit> limits = new ArrayList<>(List.of(Limit.of(10, 10, Duration.ofDays(1))));
        if (variant.threeLimits()) {
            limits.add(Limit.of(50, 50, Duration.ofDays(7)));
            limits.add(Limit.of(150, 150, Duration.ofDays(30)));
        }
        if (variant.impl() == Impl.BUCKET4J) {
            ConfigurationBuilder builder = BucketConfiguration.builder();
            for (Limit limit : limits) {
                builder.addLimit(bandwidth -> bandwidth.capacity(limit.burst()).refillGreedy(limit.tokens(), limit.period()));
            }
            return new Impl.Bucket4jLimiter(caller.getMap(mapName), builder.build());
        }
        return new Impl.StoreLimiter(new HazelcastBucketStore(caller, mapName, true), TokenBucket.of(limits), 0);
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(Double::compare);
        return sorted.get(sorted.size() / 2);
    }

    /** @return the median and, in brackets, the least and the most */
    private static String spread(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(Double::compare);
        return String.format(Locale.ROOT, "%.0f (%.0f–%.0f)", median(values), sorted.get(0), sorted.get(sorted.size() - 1));
    }

    private static long heapAfterGc() throws InterruptedException {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) { // the least of several full GCs: what is still reachable
            System.gc();
            Thread.sleep(200);
            used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
