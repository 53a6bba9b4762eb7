package io.tollgate.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Implementations compared across a network: {@link ComparisonBenchmark} trials on a cluster whose members, and whose
 * client, reach each other through {@link DelayRelay}s that hold every packet for a given delay each way. Rounds
 * repeat every delay, scenario and implementation; within a round the implementations of a scenario run one after
 * another, in reverse order every other round, so the machine's drift touches all alike. The report gives, per delay
 * and scenario, each implementation's decisions per second, the latency its callers saw at p50, p99 and p99.9 (the
 * medians over the rounds), the CPU time of every thread of every JVM per decision (and, in a table of its own, of the
 * groups of threads that take the most), its allocation per decision on loopback (across relays their copies of each
 * packet would count too), and its ratio to each other implementation, paired round by round; and how long packets actually waited
 * in the relays.
 *
 * <pre>AcrossHosts &lt;rounds&gt; &lt;report.md&gt; &lt;delays, µs each way&gt; &lt;impl,impl,...&gt; &lt;keys/topology/load/threads&gt;...</pre>
 *
 * for example {@code AcrossHosts 3 target/bench/network.md 200,1000 tollgate-default,bucket4j,tollgate-plain
 * users/client/allowed-heavy/64}.
 */
public final class AcrossHosts {

    private static final int CPU_ROWS = 10;

    private AcrossHosts() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 5) {
            System.err.println("usage: AcrossHosts <rounds> <report.md> <delays, µs each way> <impl,impl,...> <keys/topology/load/threads>...");
            System.exit(2);
        }
        int rounds = Integer.parseInt(args[0]);
        Path report = Path.of(args[1]);
        long[] delays = Arrays.stream(args[2].split(",")).mapToLong(Long::parseLong).toArray();
        List<String> impls = List.of(args[3].split(","));
        List<String> scenarios = Arrays.asList(args).subList(4, args.length);
        Path latencies = Files.createTempDirectory("tollgate-across-hosts");
        Map<String, List<Rounds.Trial>> trials = new LinkedHashMap<>();
        for (int round = 1; round <= rounds; round++) {
            for (long delay : delays) {
                for (String scenario : scenarios) {
                    List<String> order = new ArrayList<>(impls);
                    if (round % 2 == 0) {
                        java.util.Collections.reverse(order);
                    }
                    for (String impl : order) {
                        Rounds.Trial trial = Rounds.trial(impl, scenario, delay, latencies);
                        trials.computeIfAbsent(id(delay, scenario, impl), k -> new ArrayList<>()).add(trial);
                        System.out.printf(Locale.ROOT, "round %d, %d µs, %s, %s: %.0f decisions/s, p50 %.0f µs, p99 %.0f µs,"
                                + " packets waited p50 %.0f µs%n", round, delay, scenario, impl, trial.perSecond(),
                                trial.micros("p50Ns"), trial.micros("p99Ns"), trial.micros("relayedP50Ns"));
                    }
                }
            }
        }
        StringBuilder md = new StringBuilder();
        for (long delay : delays) {
            md.append(section(delay, impls, scenarios, trials));
        }
        boolean onHosts = onHosts();
        md.append(String.format(Locale.ROOT, "Median (min–max) of %d rounds; the latencies are the medians of the rounds' p50, p99"
                + " and p99.9 of every %dth decision timed by its caller; CPU is the time of every thread of every JVM of the"
                + " trial (relays included) per decision; relayed is the number of reads the relays passed on, both ways, per"
                + " decision (about a packet each); a ratio is paired round by round. A trial is one fork, %d s of warm-up"
                + " and %d × %d s measured, %s.%n%n", rounds, ComparisonBenchmark.SAMPLE_EVERY, Rounds.WARMUP_SECONDS,
                Rounds.MEASUREMENT_ITERATIONS, Rounds.MEASUREMENT_SECONDS, onHosts
                        ? "on three members and (for `client`) a client, each in a JVM of its own in a network namespace of its"
                                + " own, the namespaces joined by a bridge (`--hosts`)"
                        : "on three members and (for `client`) a client in one JVM"));
        for (long delay : delays) {
            md.append(whereTheCpuGoes(delay, impls, scenarios, trials));
        }
        System.out.println(md);
        Files.createDirectories(report.toAbsolutePath().getParent());
        Files.writeString(report, md);
        System.exit(0); // Hazelcast's threads
    }

    private static String section(long delay, List<String> impls, List<String> scenarios, Map<String, List<Rounds.Trial>> trials) {
        StringBuilder md = new StringBuilder();
        List<Double> waitedP50 = new ArrayList<>();
        List<Double> waitedP99 = new ArrayList<>();
        for (String scenario : scenarios) {
            for (String impl : impls) {
                for (Rounds.Trial trial : trials.get(id(delay, scenario, impl))) {
                    waitedP50.add(trial.micros("relayedP50Ns"));
                    waitedP99.add(trial.micros("relayedP99Ns"));
                }
            }
        }
        md.append(delay == 0 ? "### Loopback (no delay)\n\n" : String.format(Locale.ROOT, "### %d µs each way (%.2f ms a round"
                + " trip); packets waited in the relays %.0f µs at p50, %.0f µs at p99%n%n", delay, 2 * delay / 1000.0,
                median(waitedP50), median(waitedP99)));
        boolean relayed = delay > 0;
        md.append("| Scenario | Implementation | Decisions/s | p50 µs | p99 µs | p99.9 µs | CPU µs/decision |")
                .append(relayed ? " Relayed/decision |" : onHosts() ? " B/decision, caller's JVM |" : " B/decision |");
        for (String other : impls.subList(1, impls.size())) {
            md.append(" ÷ ").append(other).append(" |");
        }
        md.append("\n|---|---|").append("---:|".repeat(6 + impls.size() - 1)).append('\n');
        for (String scenario : scenarios) {
            for (String impl : impls) {
                List<Rounds.Trial> own = trials.get(id(delay, scenario, impl));
                md.append("| ").append(scenario).append(" | ").append(impl).append(" | ")
                        .append(Rounds.spread(own.stream().mapToDouble(Rounds.Trial::perSecond).toArray(), "%,.0f")).append(" | ")
                        .append(latency(own, "p50Ns")).append(" | ").append(latency(own, "p99Ns")).append(" | ")
                        .append(latency(own, "p999Ns")).append(" | ")
                        .append(Rounds.spread(own.stream().mapToDouble(AcrossHosts::cpuMicros).toArray(), "%,.0f")).append(" |");
                if (relayed) { // how many chunks of bytes the relays passed on (both ways) per decision
                    md.append(' ').append(Rounds.spread(own.stream().mapToDouble(t -> t.latency().getJsonNumber("relayedChunks")
                            .doubleValue() / t.latency().getJsonNumber("decisions").doubleValue()).toArray(), "%.1f")).append(" |");
                } else { // with relays, their copies of each packet would count too
                    md.append(' ').append(Rounds.spread(own.stream().mapToDouble(Rounds.Trial::bytes).toArray(), "%,.0f")).append(" |");
                }
                for (String other : impls.subList(1, impls.size())) {
                    List<Rounds.Trial> theirs = trials.get(id(delay, scenario, other));
                    double[] ratio = new double[own.size()];
                    for (int i = 0; i < ratio.length; i++) {
                        ratio[i] = own.get(i).perSecond() / theirs.get(i).perSecond();
                    }
                    md.append(' ').append(other.equals(impl) ? "" : Rounds.spread(ratio, "%.2f×")).append(" |");
                }
                md.append('\n');
            }
        }
        return md.append('\n').toString();
    }

    /** @return whether the members run on hosts of their own, in JVMs of their own */
    private static boolean onHosts() {
        return System.getProperty(BenchCluster.HOSTS_PROPERTY) != null;
    }

    /** @return the CPU time per decision of every thread of every JVM of the trial, µs */
    private static double cpuMicros(Rounds.Trial trial) {
        return trial.cpuMicrosPerDecision().values().stream().mapToDouble(Double::doubleValue).sum();
    }

    /**
     * @return per scenario, the CPU time per decision of the groups of threads that take the most in some
     *         implementation, each implementation's median over the rounds, and the rest and the total
     */
    private static String whereTheCpuGoes(long delay, List<String> impls, List<String> scenarios,
            Map<String, List<Rounds.Trial>> trials) {
        StringBuilder md = new StringBuilder(delay == 0 ? "### Where the CPU goes, no delay\n\n"
                : String.format(Locale.ROOT, "### Where the CPU goes, %d µs each way%n%n", delay));
        md.append("CPU µs per decision by JVM and group of threads (digits left out), median of the rounds.\n\n");
        for (String scenario : scenarios) {
            Map<String, Map<String, Double>> byImpl = new LinkedHashMap<>(); // impl -> group -> µs
            Map<String, Double> largest = new LinkedHashMap<>();
            for (String impl : impls) {
                List<Map<String, Double>> rounds = trials.get(id(delay, scenario, impl)).stream()
                        .map(Rounds.Trial::cpuMicrosPerDecision).toList();
                Map<String, Double> medians = new LinkedHashMap<>();
                rounds.stream().flatMap(round -> round.keySet().stream()).distinct().forEach(group -> medians.put(group,
                        median(rounds.stream().map(round -> round.getOrDefault(group, 0.0)).toList())));
                byImpl.put(impl, medians);
                medians.forEach((group, micros) -> largest.merge(group, micros, Math::max));
            }
            List<String> shown = largest.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                    .limit(CPU_ROWS).map(Map.Entry::getKey).toList();
            md.append("| ").append(scenario).append(" |");
            impls.forEach(impl -> md.append(' ').append(impl).append(" |"));
            md.append("\n|---|").append("---:|".repeat(impls.size())).append('\n');
            for (String group : shown) {
                md.append("| `").append(group).append("` |");
                impls.forEach(impl -> md.append(String.format(Locale.ROOT, " %.1f |", byImpl.get(impl).getOrDefault(group, 0.0))));
                md.append('\n');
            }
            md.append("| other threads |");
            impls.forEach(impl -> md.append(String.format(Locale.ROOT, " %.1f |", byImpl.get(impl).entrySet().stream()
                    .filter(e -> !shown.contains(e.getKey())).mapToDouble(Map.Entry::getValue).sum())));
            md.append("\n| all threads |");
            impls.forEach(impl -> md.append(String.format(Locale.ROOT, " %.1f |", byImpl.get(impl).values().stream()
                    .mapToDouble(Double::doubleValue).sum())));
            md.append("\n\n");
        }
        return md.toString();
    }

    /** @return the median of the trials' {@code field}, in µs; "< 1" for a decision made without a round trip */
    private static String latency(List<Rounds.Trial> trials, String field) {
        double micros = median(trials.stream().map(t -> t.micros(field)).toList());
        return micros < 1 ? "< 1" : String.format(Locale.ROOT, "%,.0f", micros);
    }

    private static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int n = sorted.length;
        return n == 0 ? Double.NaN : n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static String id(long delay, String scenario, String impl) {
        return delay + " " + scenario + " " + impl;
    }
}
