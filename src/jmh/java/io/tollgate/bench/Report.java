package io.tollgate.bench;

import com.hazelcast.instance.BuildInfoProvider;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * Turns the suite's results into {@code results.md} (tables) and {@code throughput.svg},
 * {@code latency-p99.svg} (charts). Reads the JMH JSON files in {@code jmh/}, the latency files in
 * {@code latency/} and {@code over-grant.json}; draws nothing by hand.
 */
final class Report {

    private static final String[] IMPLS = Arrays.stream(Impl.values()).map(i -> i.id).toArray(String[]::new);
    private static final String MEMORY = Impl.MEMORY.id;
    private static final String IN_JVM = "in-jvm";
    private static final List<String> TOPOLOGIES = List.of("local-owner", "remote-owner", "client", IN_JVM);
    private static final List<String> KEYS = List.of("hot", "users");
    private static final List<String> LOADS = List.of("allowed-heavy", "denied-heavy");
    private static final String[] COLORS = {"#1f4e9c", "#4f9be8", "#76b7b2", "#f28e2b", "#e15759", "#b07aa1", "#9c755f", "#8c8c8c"};

    /** One trial: JMH's score and allocation, and the suite's latency sample. */
    record Trial(String impl, String keys, String topology, String load, int threads,
                 double score, double error, double allocBytes, JsonObject latency) {
        double latencyMicros(String field) {
            return latency == null || !latency.containsKey(field) ? Double.NaN : latency.getJsonNumber(field).doubleValue() / 1_000;
        }
    }

    private final List<Trial> trials = new ArrayList<>();
    private final Map<String, String> run = new LinkedHashMap<>();
    private JsonArray overGrant;

    private Report() {
    }

    /** {@code Report [raw results (target/bench)] [report directory (the raw results' directory)]} */
    public static void main(String[] args) throws IOException {
        Path in = args.length > 0 ? Path.of(args[0]) : Suite.OUT;
        write(in, args.length > 1 ? Path.of(args[1]) : in);
    }

    /** Reads the raw results in {@code in}, writes the tables and charts to {@code dir}. */
    static void write(Path in, Path dir) throws IOException {
        Report report = new Report();
        report.read(in);
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("results.md"), report.markdown(), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("throughput.svg"), report.chart("Decisions per second (log scale; higher is better)",
                t -> t.score(), false), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("latency-p99.svg"), report.chart("p99 latency of one decision, µs (log scale; lower is better)",
                t -> t.latencyMicros("p99Ns"), true), StandardCharsets.UTF_8);
        System.out.printf("Report: %d trials -> %s, %s, %s%n", report.trials.size(), dir.resolve("results.md"),
                dir.resolve("throughput.svg"), dir.resolve("latency-p99.svg"));
    }

    // ---------------------------------------------------------------- reading

    private void read(Path dir) throws IOException {
        Map<String, JsonObject> latencies = new LinkedHashMap<>();
        for (Path file : Suite.jsonFiles(dir.resolve("latency"))) {
            JsonObject o = readJson(file).asJsonObject();
            latencies.put(id(o.getString("impl"), o.getString("keys"), o.getString("topology"), o.getString("load"),
                    o.getInt("threads")) + "|" + o.getString("mode"), o);
        }
        for (Path file : Suite.jsonFiles(dir.resolve("jmh"))) {
            for (JsonValue value : readJson(file).asJsonArray()) {
                JsonObject r = value.asJsonObject();
                if (!r.getString("benchmark").endsWith("ComparisonBenchmark.decide")) {
                    continue;
                }
                JsonObject p = r.getJsonObject("params");
                JsonObject primary = r.getJsonObject("primaryMetric");
                JsonObject secondary = r.getJsonObject("secondaryMetrics");
                double alloc = secondary != null && secondary.containsKey("gc.alloc.rate.norm")
                        ? number(secondary.getJsonObject("gc.alloc.rate.norm").get("score")) : Double.NaN;
                int threads = r.getInt("threads");
                String id = id(p.getString("impl"), p.getString("keys"), p.getString("topology"), p.getString("load"), threads);
                trials.add(new Trial(p.getString("impl"), p.getString("keys"), p.getString("topology"), p.getString("load"), threads,
                        number(primary.get("score")), number(primary.get("scoreError")), alloc,
                        latencies.get(id + "|" + r.getString("mode"))));
                run.putIfAbsent("JVM", r.getString("vmName", "?") + " " + r.getString("vmVersion", "?")
                        + " (Java " + r.getString("jdkVersion", "?") + ")");
                run.putIfAbsent("JMH", r.getString("jmhVersion", "?") + "; " + r.getInt("forks") + " fork per trial, "
                        + r.getInt("warmupIterations") + " × " + r.getString("warmupTime") + " warm-up, "
                        + r.getInt("measurementIterations") + " × " + r.getString("measurementTime") + " measurement");
            }
        }
        Path overGrantFile = dir.resolve("over-grant.json");
        if (Files.exists(overGrantFile)) {
            overGrant = readJson(overGrantFile).asJsonArray();
        }
    }

    private static JsonValue readJson(Path file) throws IOException {
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8); JsonReader json = Json.createReader(in)) {
            return json.readValue();
        }
    }

    private static double number(JsonValue value) {
        if (value instanceof JsonNumber) {
            return ((JsonNumber) value).doubleValue();
        }
        if (value instanceof JsonString) {
            try {
                return Double.parseDouble(((JsonString) value).getString());
            } catch (NumberFormatException e) {
                return Double.NaN;
            }
        }
        return Double.NaN;
    }

    private static String id(String impl, String keys, String topology, String load, int threads) {
        return String.join("|", impl, keys, topology, load, Integer.toString(threads));
    }

    private Trial find(String impl, String keys, String topology, String load, int threads) {
        for (Trial t : trials) {
            if (t.impl().equals(impl) && t.keys().equals(keys) && t.topology().equals(topology) && t.load().equals(load)
                    && t.threads() == threads) {
                return t;
            }
        }
        return null;
    }

    /** The trial for a cell of a table row: memory's column shows its in-JVM trial on every row. */
    private Trial cell(String impl, String keys, String topology, String load, int threads) {
        return find(impl, keys, MEMORY.equals(impl) ? IN_JVM : topology, load, threads);
    }

    private Set<Integer> threadCounts() {
        return trials.stream().map(Trial::threads).sorted().collect(Collectors.toCollection(LinkedHashSet::new));
    }

    /** @return the (keys, load) groups that have trials, in a fixed order */
    private List<String[]> groups() {
        List<String[]> groups = new ArrayList<>();
        for (String keys : KEYS) {
            for (String load : LOADS) {
                if (trials.stream().anyMatch(t -> t.keys().equals(keys) && t.load().equals(load))) {
                    groups.add(new String[] {keys, load});
                }
            }
        }
        return groups;
    }

    /** @return the topologies of a group's rows: the clustered ones it has, or in-jvm alone */
    private List<String> topologies(String keys, String load) {
        List<String> clustered = TOPOLOGIES.stream().filter(topology -> !topology.equals(IN_JVM)
                && trials.stream().anyMatch(t -> t.keys().equals(keys) && t.load().equals(load) && t.topology().equals(topology)))
                .collect(Collectors.toList());
        return clustered.isEmpty() ? List.of(IN_JVM) : clustered;
    }

    // ---------------------------------------------------------------- tables

    private String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("# Tollgate and the alternatives\n\n");
        md.append("Generated by the benchmark suite from the results of one run; do not edit by hand.\n\n");
        md.append("| | |\n|---|---|\n");
        md.append("| Date | ").append(LocalDate.now(ZoneOffset.UTC)).append(" |\n");
        md.append("| Machine | ").append(Runtime.getRuntime().availableProcessors()).append(" CPUs, ")
                .append(System.getProperty("os.name")).append(' ').append(System.getProperty("os.arch")).append(" |\n");
        run.forEach((k, v) -> md.append("| ").append(k).append(" | ").append(v).append(" |\n"));
        md.append("| Hazelcast | ").append(BuildInfoProvider.getBuildInfo().getVersion())
                .append(": ").append(ComparisonBenchmark.MEMBERS).append(" members in one JVM on 127.0.0.1, one synchronous backup |\n");
        md.append("| Bucket4j | ").append(bucket4jVersion()).append(", `HazelcastProxyManager` (entry processor), its serializers registered |\n");
        md.append("\n");
        md.append("""
                Implementations, each deciding the same continuous token bucket (cost 1):

                - `tollgate-plain`: one entry-processor call per decision (`HazelcastBucketStore`).
                - `tollgate-default`: as Tollgate runs by default: denial cache over hot-key coalescing over the same store, 250 ms store timeout.
                - `bucket4j`: Bucket4j's `HazelcastProxyManager`, greedy refill, `tryConsumeAndReturnRemaining`, expiry after refill + 2 s.
                - `get-put`: `get`, decide on the caller, `put`: not atomic.
                - `cas`: `get`, decide on the caller, `replace(key, old, new)`, again on a conflict.
                - `lock`: `lock`, `get`, decide on the caller, `put`, `unlock`.
                - `memory`: Tollgate's in-JVM store, no network: the lower bound (the same figure on each row).

                Scenarios: `hot` is one key, `users` one of 100 000 keys drawn per call. `local-owner`: a member calls and
                owns the hot key (for `users`: every key is one it owns); `remote-owner`: a member calls and another owns
                the hot key (for `users`: keys fall where the hash puts them, a third on the caller); `client`: a Hazelcast
                client calls. `allowed-heavy`: a limit nothing reaches; `denied-heavy`: burst 10, 10/s, so almost
                everything is denied. Threads: JMH threads, each calling in a closed loop.

                """);
        md.append("## Throughput (decisions per second)\n\n");
        md.append("Score ± JMH's 99.9 % error, in % of the score. The ratio columns divide Tollgate's score by Bucket4j's.\n\n");
        for (String[] group : groups()) {
            md.append(table(group[0], group[1], true, t -> formatRate(t.score(), t.error())));
        }
        md.append("![throughput](throughput.svg)\n\n");
        md.append("## Latency (µs, p50 / p99)\n\n");
        md.append("Every ").append(ComparisonBenchmark.SAMPLE_EVERY)
                .append("th decision of each thread is timed in the measurement iterations of the same trials; closed loop, so with more threads than")
                .append(" the machine has cores, latency includes waiting for a CPU.\n\n");
        for (String[] group : groups()) {
            md.append(table(group[0], group[1], false, t -> formatMicros(t.latencyMicros("p50Ns")) + " / " + formatMicros(t.latencyMicros("p99Ns"))));
        }
        md.append("![p99 latency](latency-p99.svg)\n\n");
        md.append("## Allocation (bytes per decision)\n\n");
        md.append("`gc.alloc.rate.norm`: everything this JVM allocated per decision, which is the caller, the owner and the backup")
                .append(" member (and the client), since the whole cluster runs in it; `memory` has no cluster.\n\n");
        for (String[] group : groups()) {
            md.append(table(group[0], group[1], false, t -> formatBytes(t.allocBytes())));
        }
        md.append("## Over-grant (correctness)\n\n");
        if (overGrant == null || overGrant.isEmpty()) {
            md.append("Not run.\n\n");
        } else {
            JsonObject first = overGrant.getJsonObject(0);
            md.append("The over-grant test of OverGrantTest, for each implementation: burst 10, 10 tokens/s, ").append(first.getInt("threads"))
                    .append(" threads spread over the ").append(first.getInt("members")).append(" members, ")
                    .append(String.format(Locale.ROOT, "%.0f", number(first.get("seconds"))))
                    .append(" s on one key. `bound` is burst + rate × (last answer − first request); an exact limiter allows at most that.")
                    .append(" `tollgate-default` runs as deployed (Tollgate's engine: 250 ms store timeout, then `on-store-failure=allow`, which still denies a key denied moments ago; a call let through that way counts as allowed) and,")
                    .append(" like OverGrantTest, waiting for every answer; `memory` with a store per member (three instances with")
                    .append(" local limiters) and with one store for all threads (one instance).\n\n");
            md.append("| impl | total | allowed | bound | over_grant % | decisions/s | failed (answered fail-open) |\n");
            md.append("|---|---:|---:|---:|---:|---:|---:|\n");
            for (JsonValue v : overGrant) {
                JsonObject r = v.asJsonObject();
                md.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %.1f | %s | %d |%n", r.getString("impl"),
                        r.getJsonNumber("total").longValue(), r.getJsonNumber("allowed").longValue(), r.getJsonNumber("bound").longValue(),
                        number(r.get("overGrantPercent")), formatRate(number(r.get("decisionsPerSecond")), Double.NaN),
                        r.getJsonNumber("failures").longValue()));
            }
            md.append('\n');
        }
        md.append(checks());
        return md.toString();
    }

    private String table(String keys, String load, boolean ratios, java.util.function.Function<Trial, String> format) {
        StringBuilder md = new StringBuilder();
        md.append("**").append(keys.equals("hot") ? "hot key" : "100 000 user keys").append(", ").append(load).append("**\n\n");
        md.append("| topology | threads |");
        for (String impl : IMPLS) {
            md.append(' ').append(impl).append(" |");
        }
        if (ratios) {
            md.append(" plain ÷ bucket4j | default ÷ bucket4j |");
        }
        md.append("\n|---|---:|");
        md.append("---:|".repeat(IMPLS.length + (ratios ? 2 : 0)));
        md.append('\n');
        for (String topology : topologies(keys, load)) {
            for (int threads : threadCounts()) {
                if (Arrays.stream(IMPLS).noneMatch(impl -> (topology.equals(IN_JVM) || !impl.equals(MEMORY))
                        && cell(impl, keys, topology, load, threads) != null)) {
                    continue; // no trial of this row's own (memory's column only repeats its in-JVM figure)
                }
                md.append("| ").append(topology).append(" | ").append(threads).append(" |");
                for (String impl : IMPLS) {
                    Trial t = cell(impl, keys, topology, load, threads);
                    md.append(' ').append(t == null ? "—" : format.apply(t)).append(" |");
                }
                if (ratios) {
                    Trial b4j = find(Impl.BUCKET4J.id, keys, topology, load, threads);
                    md.append(' ').append(ratio(find(Impl.TOLLGATE_PLAIN.id, keys, topology, load, threads), b4j)).append(" |");
                    md.append(' ').append(ratio(find(Impl.TOLLGATE_DEFAULT.id, keys, topology, load, threads), b4j)).append(" |");
                }
                md.append('\n');
            }
        }
        md.append('\n');
        return md.toString();
    }

    private static String ratio(Trial a, Trial b) {
        if (a == null || b == null || !(b.score() > 0)) {
            return "—";
        }
        return String.format(Locale.ROOT, "%.2f×", a.score() / b.score());
    }

    /** Things a reader should know before trusting a figure. */
    private String checks() {
        List<String> notes = new ArrayList<>();
        for (Trial t : trials) {
            String name = String.join(" / ", t.impl(), t.keys(), t.topology(), t.load(), t.threads() + " threads");
            if (t.latency() == null) {
                notes.add(name + ": no latency sample");
                continue;
            }
            double allowed = number(t.latency().get("allowedFraction"));
            if (t.load().equals("allowed-heavy") && allowed < 1) {
                notes.add(name + String.format(Locale.ROOT, ": only %.2f %% allowed under a limit nothing should reach", allowed * 100));
            }
            if (t.load().equals("denied-heavy") && t.keys().equals("hot") && allowed > 0.05) {
                notes.add(name + String.format(Locale.ROOT, ": %.1f %% allowed under burst 10, 10/s", allowed * 100));
            }
        }
        if (overGrant != null) {
            for (JsonValue v : overGrant) {
                JsonObject r = v.asJsonObject();
                long allowed = r.getJsonNumber("allowed").longValue();
                long bound = r.getJsonNumber("bound").longValue();
                long failures = r.getJsonNumber("failures").longValue();
                String impl = r.getString("impl");
                if (allowed > bound && failures > 0) {
                    notes.add(String.format(Locale.ROOT, "over-grant, %s: %d allowed, bound %d; %d of the allowed were failed store calls"
                            + " answered by fail-open, so the store itself granted %d", impl, allowed, bound, failures, allowed - failures));
                } else if (allowed > bound && !impl.equals(Impl.GET_PUT.id) && !impl.contains("per member")) {
                    notes.add(String.format(Locale.ROOT, "over-grant, %s: %d allowed, bound %d", impl, allowed, bound));
                }
            }
        }
        StringBuilder md = new StringBuilder("## Checks\n\n");
        md.append("Share of decisions allowed, from the same trials: all under `allowed-heavy`; at most a few per cent on the hot key under `denied-heavy`")
                .append(" (more means the implementation grants more than the limit, or the run was very short). Over-grant beyond the")
                .append(" bound by an implementation meant to be exact.\n\n");
        if (notes.isEmpty()) {
            md.append("Nothing to report.\n");
        } else {
            notes.forEach(n -> md.append("- ").append(n).append('\n'));
        }
        return md.toString();
    }

    private static String bucket4jVersion() {
        try (InputStream in = Report.class.getResourceAsStream("/META-INF/maven/com.bucket4j/bucket4j_jdk17-hazelcast/pom.properties")) {
            if (in == null) {
                return "?";
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "?");
        } catch (IOException e) {
            return "?";
        }
    }

    static String formatRate(double value, double error) {
        if (Double.isNaN(value)) {
            return "—";
        }
        String text;
        if (value >= 1e6) {
            text = String.format(Locale.ROOT, "%.2f M", value / 1e6);
        } else if (value >= 1e3) {
            text = String.format(Locale.ROOT, "%.1f k", value / 1e3);
        } else {
            text = String.format(Locale.ROOT, "%.0f", value);
        }
        if (!Double.isNaN(error) && value > 0) {
            text += String.format(Locale.ROOT, " ±%.0f%%", error / value * 100);
        }
        return text;
    }

    static String formatMicros(double micros) {
        if (Double.isNaN(micros) || micros < 0) {
            return "—";
        }
        if (micros >= 100) {
            return String.format(Locale.ROOT, "%.0f", micros);
        }
        if (micros >= 1) {
            return String.format(Locale.ROOT, "%.1f", micros);
        }
        return String.format(Locale.ROOT, "%.2f", micros);
    }

    static String formatBytes(double bytes) {
        if (Double.isNaN(bytes)) {
            return "—";
        }
        return bytes >= 10_000 ? String.format(Locale.ROOT, "%.1f KB", bytes / 1024) : String.format(Locale.ROOT, "%.0f B", bytes);
    }

    // ---------------------------------------------------------------- charts

    /**
     * Small multiples: a panel per scenario (keys, topology, load), in each a group of bars per
     * thread count, a bar per implementation; a shared logarithmic axis.
     */
    private String chart(String title, ToDoubleFunction<Trial> metric, boolean lowerIsBetter) {
        List<String[]> panels = new ArrayList<>();
        for (String keys : KEYS) {
            for (String load : LOADS) {
                for (String topology : topologies(keys, load)) {
                    if (trials.stream().anyMatch(t -> t.keys().equals(keys) && t.load().equals(load))) {
                        panels.add(new String[] {keys, topology, load});
                    }
                }
            }
        }
        List<Integer> threads = new ArrayList<>(threadCounts());
        double min = Double.MAX_VALUE;
        double max = 0;
        for (Trial t : trials) {
            double v = metric.applyAsDouble(t);
            if (v > 0 && !Double.isNaN(v)) {
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
        }
        if (max == 0) {
            min = 1;
            max = 10;
        }
        int lowDecade = (int) Math.floor(Math.log10(min / 3)); // the smallest bar stays visible
        int highDecade = (int) Math.ceil(Math.log10(max));
        if (highDecade == lowDecade) {
            highDecade++;
        }

        int columns = 2;
        int panelWidth = 520;
        int panelHeight = 230;
        int left = 60;
        int top = 70;
        int gap = 30;
        int rows = Math.max(1, (panels.size() + columns - 1) / columns);
        int width = left + columns * (panelWidth + gap);
        int height = top + rows * (panelHeight + gap + 20) + 10;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                + "font-family=\"sans-serif\" font-size=\"11\">%n", width, height, width, height));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"20\" font-size=\"15\" font-weight=\"bold\">%s</text>%n", left, escape(title)));
        // legend
        int x = left;
        for (int i = 0; i < IMPLS.length; i++) {
            svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"32\" width=\"12\" height=\"12\" fill=\"%s\"/>", x, COLORS[i]));
            String label = IMPLS[i].equals(MEMORY) ? MEMORY + " (in-JVM)" : IMPLS[i];
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"42\">%s</text>%n", x + 16, escape(label)));
            x += 26 + label.length() * 7;
        }
        for (int p = 0; p < panels.size(); p++) {
            String keys = panels.get(p)[0];
            String topology = panels.get(p)[1];
            String load = panels.get(p)[2];
            int px = left + (p % columns) * (panelWidth + gap);
            int py = top + (p / columns) * (panelHeight + gap + 20);
            int plotTop = py + 18;
            int plotHeight = panelHeight - 40;
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">%s</text>%n", px, py + 10,
                    escape((keys.equals("hot") ? "hot key" : "100 000 users") + ", " + topology + ", " + load)));
            // axis and decade lines
            for (int d = lowDecade; d <= highDecade; d++) {
                double y = plotTop + plotHeight - (double) (d - lowDecade) / (highDecade - lowDecade) * plotHeight;
                svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>", px, y, px + panelWidth, y));
                svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" fill=\"#555\">%s</text>%n",
                        px - 4, y + 4, escape(decade(d))));
            }
            int groupWidth = panelWidth / Math.max(1, threads.size());
            int barWidth = Math.max(4, (groupWidth - 20) / IMPLS.length);
            for (int g = 0; g < threads.size(); g++) {
                int gx = px + g * groupWidth + 10;
                for (int i = 0; i < IMPLS.length; i++) {
                    Trial t = cell(IMPLS[i], keys, topology, load, threads.get(g));
                    double v = t == null ? Double.NaN : metric.applyAsDouble(t);
                    int bx = gx + i * barWidth;
                    if (Double.isNaN(v) || v <= 0) {
                        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"#999\" font-size=\"9\">–</text>",
                                bx + 1, plotTop + plotHeight - 2));
                        continue;
                    }
                    double fraction = (Math.log10(v) - lowDecade) / (highDecade - lowDecade);
                    double h = Math.max(1, fraction * plotHeight);
                    svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\">"
                                    + "<title>%s, %d threads: %s</title></rect>%n",
                            bx, plotTop + plotHeight - h, barWidth - 1, h, COLORS[i], escape(IMPLS[i]), threads.get(g),
                            escape(String.format(Locale.ROOT, "%.4g", v))));
                }
                svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#333\">%d thread%s</text>%n",
                        gx + IMPLS.length * barWidth / 2, plotTop + plotHeight + 14, threads.get(g), threads.get(g) == 1 ? "" : "s"));
            }
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>%n",
                    px, plotTop + plotHeight, px + panelWidth, plotTop + plotHeight));
        }
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"#555\">%s</text>%n", left, height - 6,
                escape((lowerIsBetter ? "Lower is better. " : "Higher is better. ")
                        + "memory (in-JVM) is the same trial in every panel of its keys and load. Generated from the suite's results.")));
        svg.append("</svg>\n");
        return svg.toString();
    }

    private static String decade(int d) {
        double v = Math.pow(10, d);
        if (v >= 1e6) {
            return String.format(Locale.ROOT, "%.0fM", v / 1e6);
        }
        if (v >= 1e3) {
            return String.format(Locale.ROOT, "%.0fk", v / 1e3);
        }
        if (v >= 1) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        return String.format(Locale.ROOT, "%s", v);
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
