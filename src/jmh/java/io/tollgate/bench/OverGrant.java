package io.tollgate.bench;

import io.tollgate.internal.core.BucketKeys;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * The over-grant test of OverGrantTest (the library's tests), for every implementation on one
 * 3-member cluster: burst 10, 10 tokens/s, 64 threads spread over the members (thread {@code t}
 * calls through member {@code t % 3}), 3 s on one key. No implementation may grant more than {@code burst + rate × T},
 * {@code T} from the first request sent to the last answer received.
 *
 * <p>{@code tollgate-default} runs twice: with the default 250 ms store timeout (after which the
 * caller fails open, as {@code on-store-failure=allow} does) and, as in OverGrantTest, waiting
 * for every answer. {@code memory} runs twice: one store per member, as three instances with a local limiter
 * each would (the limit is then per instance, not per cluster), and one store shared by all
 * threads, as a single instance would.
 */
final class OverGrant {

    static final int THREADS = 64;
    static final long RUN_NANOS = TimeUnit.SECONDS.toNanos(3);
    private static final int BASE_PORT = 5951;

    record Row(String impl, long total, long allowed, long bound, double overGrantPercent, double decisionsPerSecond, long failures) {
    }

    private OverGrant() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 ? args[0] : "target/bench/over-grant.json");
        List<Row> rows = run();
        write(rows, out);
        System.exit(0); // Hazelcast's and the pools' threads
    }

    static List<Row> run() throws Exception {
        List<Row> rows = new ArrayList<>();
        try (BenchCluster cluster = new BenchCluster(ComparisonBenchmark.MEMBERS, BASE_PORT, Impl::configureMember)) {
            for (Impl impl : Impl.values()) {
                if (impl.clustered()) {
                    rows.add(run(impl.id, member -> impl.open(cluster.members.get(member), Load.DENIED_HEAVY)));
                    if (impl == Impl.TOLLGATE_DEFAULT) {
                        rows.add(run(impl.id + " (no timeout)",
                                member -> Impl.tollgateDefault(cluster.members.get(member), Load.DENIED_HEAVY, Duration.ZERO)));
                    }
                } else {
                    rows.add(run(impl.id + " (one store per member)", member -> impl.open(null, Load.DENIED_HEAVY)));
                    ComparedLimiter shared = impl.open(null, Load.DENIED_HEAVY);
                    rows.add(run(impl.id + " (one store for all)", member -> shared));
                }
            }
        }
        System.out.println();
        System.out.println(table(rows));
        return rows;
    }

    /** @param limiterOf the limiter that member {@code i} calls through */
    static Row run(String name, IntFunction<ComparedLimiter> limiterOf) throws Exception {
        String key = BucketKeys.of("over-grant", name.replace(' ', '-') + "-" + UUID.randomUUID());
        List<ComparedLimiter> limiters = new ArrayList<>();
        for (int i = 0; i < ComparisonBenchmark.MEMBERS; i++) {
            limiters.add(limiterOf.apply(i));
        }
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Caller>> results = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            ComparedLimiter limiter = limiters.get(t % limiters.size());
            results.add(pool.submit(() -> {
                start.await();
                Caller caller = new Caller();
                long deadline = System.nanoTime() + RUN_NANOS;
                while (System.nanoTime() < deadline) {
                    caller.lastSent = System.nanoTime();
                    if (caller.firstSent == 0) {
                        caller.firstSent = caller.lastSent;
                    }
                    boolean allowed = limiter.tryAcquire(key, 1);
                    caller.lastReceived = System.nanoTime();
                    if (caller.firstReceived == 0) {
                        caller.firstReceived = caller.lastReceived;
                    }
                    caller.total++;
                    caller.allowed += allowed ? 1 : 0;
                }
                return caller;
            }));
        }
        start.countDown();
        List<Caller> callers = new ArrayList<>();
        for (Future<Caller> result : results) {
            callers.add(result.get(120, TimeUnit.SECONDS));
        }
        pool.shutdownNow();
        long failures = limiters.stream().distinct().mapToLong(ComparedLimiter::failures).sum();
        limiters.stream().distinct().filter(l -> l.failures() > 0)
                .forEach(l -> System.out.printf("over-grant %s: %s, answered by fail-open%n", name, l.describeFailures()));
        limiters.stream().distinct().forEach(ComparedLimiter::close);

        long allowed = callers.stream().mapToLong(c -> c.allowed).sum();
        long total = callers.stream().mapToLong(c -> c.total).sum();
        long firstSent = callers.stream().mapToLong(c -> c.firstSent).min().orElseThrow();
        long lastReceived = callers.stream().mapToLong(c -> c.lastReceived).max().orElseThrow();
        // every decision was made between the first request sent and the last answer received
        double outer = (lastReceived - firstSent) / 1e9;
        Load load = Load.DENIED_HEAVY;
        double ratePerSecond = (double) load.tokens / load.period.toNanos() * 1e9;
        long bound = (long) Math.floor(load.burst + ratePerSecond * outer);
        Row row = new Row(name, total, allowed, bound, Math.max(0, allowed - bound) * 100.0 / bound, total / outer, failures);
        System.out.printf("over-grant %s: threads=%d elapsed=%.3fs decisions=%d allowed=%d bound=%d over_grant=%.2f%% failures=%d%n",
                name, THREADS, outer, total, allowed, bound, row.overGrantPercent(), failures);
        return row;
    }

    static String table(List<Row> rows) {
        StringBuilder s = new StringBuilder();
        s.append("| impl | total | allowed | bound | over_grant % | decisions/s | failed, answered fail-open |\n");
        s.append("|---|---:|---:|---:|---:|---:|---:|\n");
        for (Row r : rows) {
            s.append(String.format("| %s | %d | %d | %d | %.1f | %.0f | %d |%n",
                    r.impl(), r.total(), r.allowed(), r.bound(), r.overGrantPercent(), r.decisionsPerSecond(), r.failures()));
        }
        return s.toString();
    }

    static void write(List<Row> rows, Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        JsonArrayBuilder array = Json.createArrayBuilder();
        for (Row r : rows) {
            array.add(Json.createObjectBuilder().add("impl", r.impl()).add("total", r.total()).add("allowed", r.allowed())
                    .add("bound", r.bound()).add("overGrantPercent", r.overGrantPercent())
                    .add("decisionsPerSecond", r.decisionsPerSecond()).add("failures", r.failures())
                    .add("threads", THREADS).add("seconds", RUN_NANOS / 1e9).add("members", ComparisonBenchmark.MEMBERS));
        }
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            Json.createWriter(out).writeArray(array.build());
        }
    }

    private static final class Caller {
        long allowed;
        long total;
        long firstSent;
        long firstReceived;
        long lastSent;
        long lastReceived;
    }
}
