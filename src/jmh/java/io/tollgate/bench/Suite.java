package io.tollgate.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The comparison suite in one run: the JMH matrix of {@link ComparisonBenchmark} (throughput,
 * allocation per decision, latency percentiles), then {@link OverGrant}, then {@link Report}.
 *
 * <pre>
 * Suite [full|smoke] [jmh] [over-grant] [report]
 * </pre>
 *
 * The plan ({@code full} by default) sets the matrix and the iterations; the phases default to all
 * three. {@code report} alone rebuilds the tables and charts from the results already written.
 * The raw results go to {@code target/bench}; the report of a full run to {@link #RESULTS}, where the
 * README links it, that of a smoke run next to the raw results.
 *
 * <p>The matrix ({@code full}), each cell at 1, 16 and 64 threads:
 * <ul>
 *   <li>hot key: the six clustered implementations × local-owner, remote-owner, client ×
 *       allowed-heavy, denied-heavy;</li>
 *   <li>100 000 user keys: the six × remote-owner (keys where the hash puts them), client ×
 *       allowed-heavy (with one call per key every few seconds, denied-heavy is allowed-heavy);</li>
 *   <li>memory, in this JVM: hot × both loads, users × allowed-heavy.</li>
 * </ul>
 */
public final class Suite {

    static final Path OUT = Path.of("target", "bench");
    static final Path JMH_DIR = OUT.resolve("jmh");
    static final Path LATENCY_DIR = OUT.resolve("latency");
    static final Path OVER_GRANT = OUT.resolve("over-grant.json");
    /** Where the reports the README links go: {@code -Dtollgate.bench.results}, else src/jmh/results. */
    static final Path RESULTS = Path.of(System.getProperty("tollgate.bench.results", "src/jmh/results"));
    /** A fork, three members (and a client) started and stopped, per trial: measured 4-5 s on 2 cores. */
    private static final double TRIAL_OVERHEAD_SECONDS = 4.5;

    private static final String[] CLUSTERED = Arrays.stream(Impl.values()).filter(Impl::clustered).map(i -> i.id).toArray(String[]::new);

    /** One cartesian block of the matrix. */
    record Block(String name, String[] impls, String keys, String[] topologies, String[] loads) {
        int cells() {
            return impls.length * topologies.length * loads.length;
        }
    }

    /** How much of the matrix, and how long each trial measures. */
    record Plan(String name, List<Block> blocks, int[] threads, int warmupIterations, int warmupSeconds,
                int measurementIterations, int measurementSeconds) {
        int trials() {
            return blocks.stream().mapToInt(Block::cells).sum() * threads.length;
        }
    }

    static final Plan FULL = new Plan("full", List.of(
            new Block("hot", CLUSTERED, "hot", new String[] {"local-owner", "remote-owner", "client"},
                    new String[] {"allowed-heavy", "denied-heavy"}),
            new Block("users", CLUSTERED, "users", new String[] {"remote-owner", "client"}, new String[] {"allowed-heavy"}),
            new Block("memory-hot", new String[] {"memory"}, "hot", new String[] {"in-jvm"}, new String[] {"allowed-heavy", "denied-heavy"}),
            new Block("memory-users", new String[] {"memory"}, "users", new String[] {"in-jvm"}, new String[] {"allowed-heavy"})),
            new int[] {1, 16, 64}, 1, 2, 3, 2);

    /** A few minutes: every implementation, one thread count, the remote owner only. */
    static final Plan SMOKE = new Plan("smoke", List.of(
            new Block("hot", CLUSTERED, "hot", new String[] {"remote-owner"}, new String[] {"allowed-heavy", "denied-heavy"}),
            new Block("users", CLUSTERED, "users", new String[] {"remote-owner"}, new String[] {"allowed-heavy"}),
            new Block("memory-hot", new String[] {"memory"}, "hot", new String[] {"in-jvm"}, new String[] {"allowed-heavy", "denied-heavy"}),
            new Block("memory-users", new String[] {"memory"}, "users", new String[] {"in-jvm"}, new String[] {"allowed-heavy"})),
            new int[] {16}, 1, 1, 1, 1);

    private Suite() {
    }

    public static void main(String[] args) throws Exception {
        Plan plan = FULL;
        Set<String> phases = new TreeSet<>();
        for (String arg : args) {
            switch (arg) {
                case "full":
                    plan = FULL;
                    break;
                case "smoke":
                    plan = SMOKE;
                    break;
                case "jmh":
                case "over-grant":
                case "report":
                    phases.add(arg);
                    break;
                default:
                    throw new IllegalArgumentException("unknown argument '" + arg + "': use [full|smoke] [jmh] [over-grant] [report]");
            }
        }
        if (phases.isEmpty()) {
            phases.addAll(List.of("jmh", "over-grant", "report"));
        }
        long start = System.nanoTime();
        if (phases.contains("jmh")) {
            runMatrix(plan);
        }
        if (phases.contains("over-grant")) {
            OverGrant.write(OverGrant.run(), OVER_GRANT);
        }
        Path report = plan == FULL ? RESULTS : OUT;
        if (phases.contains("report")) {
            Report.write(OUT, report);
        }
        System.out.printf("%nSuite (%s: %s) done in %.1f min; results in %s%n", plan.name(), String.join(", ", phases),
                (System.nanoTime() - start) / 60e9, report.resolve("results.md"));
        System.exit(0); // Hazelcast's threads
    }

    static void runMatrix(Plan plan) throws Exception {
        clear(JMH_DIR);
        clear(LATENCY_DIR);
        int perTrial = plan.warmupIterations() * plan.warmupSeconds() + plan.measurementIterations() * plan.measurementSeconds();
        System.out.printf("%nPlan %s: %d trials of %d s of iterations each, plus a fork and a cluster start each:"
                        + " about %.0f min on a quiet machine%n%n",
                plan.name(), plan.trials(), perTrial, plan.trials() * (perTrial + TRIAL_OVERHEAD_SECONDS) / 60.0);
        for (int threads : plan.threads()) {
            for (Block block : plan.blocks()) {
                ChainedOptionsBuilder options = new OptionsBuilder()
                        .include(ComparisonBenchmark.class.getName() + ".decide")
                        .param("impl", block.impls())
                        .param("keys", block.keys())
                        .param("topology", block.topologies())
                        .param("load", block.loads())
                        .threads(threads)
                        .mode(Mode.Throughput)
                        .timeUnit(TimeUnit.SECONDS)
                        .forks(1)
                        .warmupIterations(plan.warmupIterations())
                        .warmupTime(TimeValue.seconds(plan.warmupSeconds()))
                        .measurementIterations(plan.measurementIterations())
                        .measurementTime(TimeValue.seconds(plan.measurementSeconds()))
                        .addProfiler(GCProfiler.class)
                        .jvmArgsAppend("-Xms2g", "-Xmx2g",
                                "-D" + ComparisonBenchmark.LATENCY_DIR_PROPERTY + "=" + LATENCY_DIR)
                        .resultFormat(ResultFormatType.JSON)
                        .result(JMH_DIR.resolve(block.name() + "-t" + threads + ".json").toString());
                new Runner(options.build()).run();
            }
        }
    }

    private static void clear(Path dir) throws IOException {
        Files.createDirectories(dir);
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
                Files.delete(file);
            }
        }
    }

    /** @return the JSON files in {@code dir}, sorted; none if it does not exist */
    static List<Path> jsonFiles(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return new ArrayList<>();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith(".json")).sorted().collect(Collectors.toList());
        }
    }
}
