package io.tollgate.bench;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConfigurationBuilder;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.internal.hazelcast.HazelcastBucketStore;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Heap per stored bucket: a three-member cluster in this JVM (one synchronous backup, as Tollgate's map and Bucket4j's
 * here are configured), {@code keys} decisions on as many keys, each implementation into a map of its own, and the
 * heap after full GCs before and after. Every bucket is stored twice (its owner's copy and its backup), both in this
 * heap: the difference divided by the keys is what one bucket costs the cluster, owner and backup together. Tollgate
 * with one limit and with three (a rule's several rates), Bucket4j with the same; rounds interleaved, the median and
 * the spread of the rounds reported.
 *
 * <p>{@code java ... io.tollgate.bench.BucketMemory [keys] [rounds] [report.md]}
 */
public final class BucketMemory {

    private static final int BASE_PORT = 5975;
    private static final List<Variant> VARIANTS = List.of(
            new Variant("tollgate, 1 limit", Impl.TOLLGATE_PLAIN, false),
            new Variant("bucket4j, 1 limit", Impl.BUCKET4J, false),
            new Variant("tollgate, 3 limits", Impl.TOLLGATE_PLAIN, true),
            new Variant("bucket4j, 3 limits", Impl.BUCKET4J, true));

    private record Variant(String name, Impl impl, boolean threeLimits) {
    }

    private BucketMemory() {
    }

    public static void main(String[] args) throws Exception {
        int keys = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Path report = args.length > 2 ? Path.of(args[2]) : null;
        List<List<Double>> perBucket = new ArrayList<>();
        VARIANTS.forEach(variant -> perBucket.add(new ArrayList<>()));
        try (BenchCluster cluster = new BenchCluster(3, BASE_PORT, Impl::configureMember)) {
            HazelcastInstance caller = cluster.members.get(0);
            for (int round = 0; round < rounds; round++) {
                for (int v = 0; v < VARIANTS.size(); v++) {
                    Variant variant = VARIANTS.get(round % 2 == 0 ? v : VARIANTS.size() - 1 - v); // interleaved
                    double bytes = measure(caller, variant, keys, round);
                    perBucket.get(VARIANTS.indexOf(variant)).add(bytes);
                    System.out.printf(Locale.ROOT, "round %d, %s: %.0f bytes per bucket (owner and backup)%n", round + 1,
                            variant.name(), bytes);
                }
            }
        }
        StringBuilder md = new StringBuilder(String.format(Locale.ROOT, "Heap per bucket, owner and backup together "
                + "(3 members in one JVM, 1 backup; %,d keys per run, %d rounds; median, min–max)%n%n", keys, rounds));
        md.append("| Store | Bytes per bucket | 10 million keys, per member of three |\n|---|---:|---:|\n");
        for (int v = 0; v < VARIANTS.size(); v++) {
            List<Double> values = new ArrayList<>(perBucket.get(v));
            values.sort(Double::compare);
            double median = values.get(values.size() / 2);
            md.append(String.format(Locale.ROOT, "| %s | %.0f (%.0f–%.0f) | %.2f GB |%n", VARIANTS.get(v).name(), median,
                    values.get(0), values.get(values.size() - 1), median * 10_000_000 / 3 / 1e9));
        }
        System.out.println(md);
        if (report != null) {
            Files.writeString(report, md);
        }
    }

    /** @return the heap the map's {@code keys} new buckets take, per bucket; the map is destroyed after */
    private static double measure(HazelcastInstance caller, Variant variant, int keys, int round) throws Exception {
        String mapName = variant.impl() == Impl.BUCKET4J ? Impl.BUCKET4J_MAP : Impl.TOLLGATE_MAP;
        long before = heapAfterGc();
        try (ComparedLimiter limiter = open(caller, variant)) {
            for (int i = 0; i < keys; i++) {
                if (!limiter.tryAcquire("user-" + round + "-" + i, 1)) {
                    throw new IllegalStateException("a first decision was a denial: " + variant.name());
                }
            }
            IMap<?, ?> map = caller.getMap(mapName);
            if (map.size() != keys) {
                throw new IllegalStateException(variant.name() + ": " + map.size() + " buckets stored, not " + keys);
            }
            long after = heapAfterGc();
            map.destroy();
            return (after - before) / (double) keys;
        }
    }

    /**
     * Limits whose buckets outlive the run (a token back in hours, so no bucket expires while it is measured): 10 a
     * day; with three limits also 50 a week and 150 a month.
     */
    private static ComparedLimiter open(HazelcastInstance caller, Variant variant) {
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
            return new Impl.Bucket4jLimiter(caller.getMap(Impl.BUCKET4J_MAP), builder.build());
        }
        return new Impl.StoreLimiter(new HazelcastBucketStore(caller, Impl.TOLLGATE_MAP, true), TokenBucket.of(limits), 0);
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
