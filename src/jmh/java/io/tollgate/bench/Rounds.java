package io.tollgate.bench;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Implementations compared side by side on a noisy machine: {@link ComparisonBenchmark} trials of one
 * fork each, repeated in rounds, and within each round every scenario runs each implementation in
 * turn (Tollgate, Bucket4j, Tollgate, Bucket4j, ...), so the machine's drift touches both alike. The
 * report gives, per scenario, each implementation's median decisions per second with the minimum and
 * maximum over the rounds, its allocation per decision (whole cluster), and the ratio of the first
 * implementation to the second paired round by round, as a median with its minimum and maximum.
 *
 * <pre>Rounds &lt;rounds&gt; &lt;report.md&gt; &lt;title&gt; &lt;impl,impl&gt; &lt;keys/topology/load/threads&gt;...</pre>
 *
 * for example {@code Rounds 5 target/bench/rounds.md "Hazelcast 5.7.0" tollgate-default,bucket4j
 * hot/remote-owner/allowed-heavy/64 users/client/allowed-heavy/64}.
 */
public final class Rounds {

    static final int WARMUP_SECONDS = 2;
    static final int MEASUREMENT_ITERATIONS = 2;
    static final int MEASUREMENT_SECONDS = 2;

    private Rounds() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 5) {
            System.err.println("usage: Rounds <rounds> <report.md> <title> <impl,impl> <keys/topology/load/threads>...");
            System.exit(2);
        }
        int rounds = Integer.parseInt(args[0]);
        Path report = Path.of(args[1]);
        String title = args[2];
        String[] impls = args[3].split(",");
        List<String> scenarios = Arrays.asList(args).subList(4, args.length);
        Map<String, Map<String, List<double[]>>> results = new LinkedHashMap<>(); // scenario → impl → (score, bytes) per round
        for (String scenario : scenarios) {
            results.put(scenario, new LinkedHashMap<>());
            for (String impl : impls) {
                results.get(scenario).put(impl, new ArrayList<>());
            }
        }
        for (int round = 1; round <= rounds; round++) {
            for (String scenario : scenarios) {
                for (String impl : impls) {
                    double[] measured = trial(impl, scenario);
                    results.get(scenario).get(impl).add(measured);
                    System.out.printf(Locale.ROOT, "round %d, %s, %s: %.0f decisions/s, %.0f B/decision%n", round, scenario, impl,
                            measured[0], measured[1]);
                }
            }
        }
        String table = table(title, impls, results, rounds);
        System.out.println(table);
        Files.createDirectories(report.toAbsolutePath().getParent());
        Files.writeString(report, table, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        System.exit(0); // Hazelcast's threads
    }

    /** @return decisions per second and bytes allocated per decision of one trial */
    private static double[] trial(String impl, String scenario) throws Exception {
        Trial trial = trial(impl, scenario, 0, null);
        return new double[] {trial.perSecond(), trial.bytes()};
    }

    /**
     * One trial: JMH's score and allocation, and, if {@code latencies} is given, the latency file the trial wrote
     * there.
     *
     * @param delayMicros the delay each way between members and clients ({@link BenchCluster#DELAY_PROPERTY}); 0: loopback
     * @param latencies   the directory the trial writes its latency file to; {@code null}: the default
     */
    static Trial trial(String impl, String scenario, long delayMicros, Path latencies) throws Exception {
        String[] s = scenario.split("/");
        if (s.length != 4) {
            throw new IllegalArgumentException("a scenario is keys/topology/load/threads, not '" + scenario + "'");
        }
        List<String> jvmArgs = new ArrayList<>(List.of("-Xms2g", "-Xmx2g", "-D" + BenchCluster.DELAY_PROPERTY + "=" + delayMicros));
        if (delayMicros > 0) {
            jvmArgs.add("-XX:ThreadPriorityPolicy=1"); // the relays' priority (see DelayRelay), where the JVM may set it
        }
        if (latencies != null) {
            jvmArgs.add("-D" + ComparisonBenchmark.LATENCY_DIR_PROPERTY + "=" + latencies.toAbsolutePath());
        }
        RunResult result = new Runner(new OptionsBuilder()
                .include(ComparisonBenchmark.class.getName() + ".decide")
                .param("impl", impl).param("keys", s[0]).param("topology", s[1]).param("load", s[2])
                .threads(Integer.parseInt(s[3]))
                .mode(Mode.Throughput).timeUnit(TimeUnit.SECONDS)
                .forks(1)
                .warmupIterations(1).warmupTime(TimeValue.seconds(WARMUP_SECONDS))
                .measurementIterations(MEASUREMENT_ITERATIONS).measurementTime(TimeValue.seconds(MEASUREMENT_SECONDS))
                .addProfiler(GCProfiler.class)
                .jvmArgsAppend(jvmArgs.toArray(new String[0]))
                .build()).runSingle();
        Result<?> bytes = result.getSecondaryResults().get("·gc.alloc.rate.norm");
        if (bytes == null) {
            bytes = result.getSecondaryResults().get("gc.alloc.rate.norm");
        }
        JsonObject latency = null;
        if (latencies != null) {
            Path file = latencies.resolve(String.join("_", impl, s[0], s[1], s[2], "t" + s[3], "thrpt") + ".json");
            try (JsonReader reader = Json.createReader(Files.newBufferedReader(file))) {
                latency = reader.readObject();
            }
        }
        return new Trial(result.getPrimaryResult().getScore(), bytes == null ? Double.NaN : bytes.getScore(), latency);
    }

    /**
     * @param perSecond decisions per second
     * @param bytes     bytes allocated per decision, the whole cluster
     * @param latency   the trial's latency file ({@link ComparisonBenchmark}); {@code null} if not asked for
     */
    record Trial(double perSecond, double bytes, JsonObject latency) {

        /** @return the latency file's {@code field}, nanoseconds, in microseconds */
        double micros(String field) {
            return latency.getJsonNumber(field).doubleValue() / 1000;
        }

        /**
         * @return the CPU time per decision, µs, of each JVM's groups of threads ({@code "<jvm>: <group>"}) in the
         *         measurement, from the latency file; empty if it has none
         */
        Map<String, Double> cpuMicrosPerDecision() {
            Map<String, Double> micros = new LinkedHashMap<>();
            long decisions = latency.getJsonNumber("decisions").longValue();
            JsonObject cpu = latency.getJsonObject("cpuNs");
            if (cpu != null && decisions > 0) {
                cpu.forEach((jvm, groups) -> groups.asJsonObject().forEach((group, nanos) -> micros.put(jvm + ": " + group,
                        ((jakarta.json.JsonNumber) nanos).doubleValue() / decisions / 1000)));
            }
            return micros;
        }
    }

    private static String table(String title, String[] impls, Map<String, Map<String, List<double[]>>> results, int rounds) {
        StringBuilder out = new StringBuilder();
        out.append("### ").append(title).append("\n\n| Scenario |");
        for (String impl : impls) {
            out.append(' ').append(impl).append(" (decisions/s) | ").append(impl).append(" (B/decision) |");
        }
        out.append(' ').append(impls[0]).append(" ÷ ").append(impls[1]).append(" |\n|---|");
        out.append("---:|".repeat(impls.length * 2 + 1)).append('\n');
        for (Map.Entry<String, Map<String, List<double[]>>> scenario : results.entrySet()) {
            out.append("| ").append(scenario.getKey()).append(" |");
            for (String impl : impls) {
                List<double[]> rs = scenario.getValue().get(impl);
                out.append(' ').append(spread(rs.stream().mapToDouble(r -> r[0]).toArray(), "%,.0f")).append(" |");
                out.append(' ').append(spread(rs.stream().mapToDouble(r -> r[1]).toArray(), "%,.0f")).append(" |");
            }
            List<double[]> first = scenario.getValue().get(impls[0]);
            List<double[]> second = scenario.getValue().get(impls[1]);
            double[] ratio = new double[first.size()];
            for (int i = 0; i < ratio.length; i++) {
                ratio[i] = first.get(i)[0] / second.get(i)[0];
            }
            out.append(' ').append(spread(ratio, "%.2f×")).append(" |\n");
        }
        out.append(String.format(Locale.ROOT, "%nMedian (min–max) of %d rounds, the implementations interleaved in each; a trial is one"
                + " fork, %d s of warm-up and %d × %d s measured; the ratio is paired round by round.%n%n", rounds,
                WARMUP_SECONDS, MEASUREMENT_ITERATIONS, MEASUREMENT_SECONDS));
        return out.toString();
    }

    /** @return the median of {@code values} with their minimum and maximum */
    static String spread(double[] values, String format) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        String m = String.format(Locale.ROOT, format, median);
        return n == 1 ? m : m + " (" + String.format(Locale.ROOT, format, sorted[0]) + "–"
                + String.format(Locale.ROOT, format, sorted[n - 1]) + ")";
    }
}
