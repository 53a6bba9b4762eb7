package io.tollgate.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An HTTP load generator, in one of two modes.
 *
 * <ul>
 * <li>Closed loop (the default): {@code threads} callers, each sending its next request when the previous answer
 * arrives, as fast as the server answers.</li>
 * <li>Open loop ({@code --rate R}): {@code R} requests per second in all, each with its scheduled send time, the
 * schedule spread evenly over the {@code threads} callers (caller {@code t} sends requests {@code t},
 * {@code t + threads}, ...; request {@code i} is due {@code i / R} s after the start). A caller sends each request at
 * its due time whether or not the server has answered the others; one that falls behind sends its late requests at
 * once. Latency runs from the due time, not from the actual send, so that waiting behind a slow answer counts (no
 * coordinated omission). Requests still unsent when the phase's time is up are not sent: the achieved rate then
 * falls short of the asked one, and the report says so below 95 %.</li>
 * </ul>
 *
 * <p>Every endpoint is warmed up in rounds that are not counted (closed loop in both modes), until the server's JIT
 * compiler settles, then measured in {@code rounds} rounds, the endpoints interleaved within each round and their order
 * reversed every other round (a, b, c, c, b, a, a, b, c, ...), so that the machine's drift touches them all alike.
 * Each phase records requests per second, status codes, latency, and, given the server's process id, the server's
 * CPU time per request from the kernel's counters for that process ({@code /proc/<pid>/stat}): far steadier than
 * throughput on a shared machine. The report gives medians over the rounds with their minimum and maximum, and each
 * endpoint's CPU per request as a ratio of that of the endpoint named {@code base-label}, paired round by round; in
 * the open loop also p99.9 and the latency each endpoint adds to the base's at p50 and p99, paired round by round,
 * and the server's CPU per request by group of threads ({@code /proc/<pid>/task}, kernel time included), named as Java
 * names them: where an endpoint's extra CPU goes.
 *
 * <p>Every request carries {@code X-Client: c<n>}, {@code n} drawn from 100 000, for rules keyed by client.
 *
 * <pre>java io.tollgate.bench.HttpLoad [--rate &lt;requests/s&gt;] &lt;base-url&gt; &lt;threads&gt; &lt;seconds&gt; &lt;rounds&gt;
 *     &lt;server-pid or 0&gt; &lt;report.md&gt; &lt;title&gt; &lt;base-label&gt; &lt;label=path&gt;...</pre>
 */
public final class HttpLoad {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private static final int CLIENTS = 100_000;
    private static final String[] CLIENT_IDS = new String[CLIENTS];
    /** The kernel's clock ticks per second for {@code /proc/<pid>/stat} (USER_HZ: 100 on Linux). */
    private static final long TICKS_PER_SECOND = Long.getLong("tollgate.bench.clk.tck", 100);
    /** The warm-up ends when the JIT compiler's threads take less than this share of the server's CPU in a round. */
    private static final double SETTLED = 0.03;
    private static final int MAX_WARM_UP_ROUNDS = 6;
    /** The Java names of the server's threads by thread id, read between phases (the kernel's are cut at 15 characters). */
    private static final Map<String, String> JAVA_NAMES = new HashMap<>();
    /** The row of the threads that ended during a phase: the process's CPU less its live threads'. */
    private static final String ENDED = "threads that ended meanwhile";
    private static final String OTHERS = "other threads";
    private static final String ALL = "all threads";
    /** Threads shown by name in the table of CPU by thread; the others are summed in one row. */
    private static final int THREAD_ROWS = 10;
    /** Below this share of the asked rate, the open loop's report warns that the server did not keep up. */
    private static final double KEPT_UP = 0.95;

    static {
        for (int i = 0; i < CLIENTS; i++) {
            CLIENT_IDS[i] = "c" + i;
        }
    }

    private HttpLoad() {
    }

    public static void main(String[] args) throws Exception {
        double rate = 0; // 0: closed loop
        int a = 0;
        if (args.length > 1 && args[0].equals("--rate")) {
            rate = Double.parseDouble(args[1]);
            if (!(rate > 0)) {
                throw new IllegalArgumentException("--rate must be positive, not " + args[1]);
            }
            a = 2;
        }
        if (args.length - a < 9) {
            System.err.println("usage: HttpLoad [--rate <requests/s>] <base-url> <threads> <seconds> <rounds> <server-pid or 0>"
                    + " <report.md> <title> <base-label> <label=path>...");
            System.exit(2);
        }
        URI base = URI.create(args[a].endsWith("/") ? args[a] : args[a] + "/");
        int threads = Integer.parseInt(args[a + 1]);
        int seconds = Integer.parseInt(args[a + 2]);
        int rounds = Integer.parseInt(args[a + 3]);
        long pid = Long.parseLong(args[a + 4]);
        Path report = Path.of(args[a + 5]);
        String title = args[a + 6];
        String baseLabel = args[a + 7];
        Map<String, List<Result>> results = new LinkedHashMap<>();
        Map<String, String> paths = new LinkedHashMap<>();
        for (int i = a + 8; i < args.length; i++) {
            String[] endpoint = args[i].split("=", 2);
            paths.put(endpoint[0], endpoint[1]);
            results.put(endpoint[0], new ArrayList<>());
        }
        if (!paths.containsKey(baseLabel)) {
            throw new IllegalArgumentException("the base '" + baseLabel + "' is not one of the endpoints " + paths.keySet());
        }
        warmUp(base, paths, threads, seconds, pid);
        List<String> order = new ArrayList<>(paths.keySet());
        List<String> reversed = new ArrayList<>(order);
        Collections.reverse(reversed);
        for (int round = 1; round <= rounds; round++) {
            for (String label : round % 2 == 1 ? order : reversed) {
                Result result = run(base.resolve(paths.get(label)), threads, seconds, rate, pid);
                results.get(label).add(result);
                JAVA_NAMES.putAll(javaThreadNames(pid)); // between phases: threads the pool made meanwhile
                System.out.println("round " + round + ", " + label + ": " + result.row());
            }
        }
        String table = rate > 0 ? openTable(title, paths, results, baseLabel, threads, seconds, rounds, rate, pid != 0)
                : table(title, paths, results, baseLabel, threads, seconds, rounds, pid != 0);
        System.out.println(table);
        Files.createDirectories(report.toAbsolutePath().getParent());
        Files.writeString(report, table, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    /**
     * Rounds at full speed that are not counted, until the server's JIT compiler settles: its threads spent under
     * {@value #SETTLED} of the server's CPU in the last round (given a pid), at most {@value #MAX_WARM_UP_ROUNDS} rounds.
     */
    private static void warmUp(URI base, Map<String, String> paths, int threads, int seconds, long pid) throws Exception {
        JAVA_NAMES.putAll(javaThreadNames(pid));
        for (int round = 1; round <= MAX_WARM_UP_ROUNDS; round++) {
            long compiler = 0;
            long all = 0;
            for (Map.Entry<String, String> endpoint : paths.entrySet()) {
                Result result = run(base.resolve(endpoint.getValue()), threads, seconds, 0, pid);
                System.out.println("warm-up " + round + ", " + endpoint.getKey() + ": " + result.row());
                for (Map.Entry<String, Long> group : result.threadTicks.entrySet()) {
                    compiler += group.getKey().contains("CompilerThre") ? group.getValue() : 0;
                    all += group.getValue();
                }
            }
            double share = all == 0 ? 0 : (double) compiler / all;
            System.out.printf(Locale.ROOT, "warm-up %d: the JIT compiler took %.1f %% of the server's CPU%n", round, 100 * share);
            if (share < SETTLED) {
                return;
            }
        }
        System.out.println("warm-up: the JIT compiler has not settled; measuring anyway");
    }

    /** One phase: {@code seconds} of load on {@code uri}, closed loop when {@code rate} is 0, else open loop. */
    private static Result run(URI uri, int threads, int seconds, double rate, long pid) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch ready = new CountDownLatch(threads);
        CountDownLatch go = new CountDownLatch(1);
        long[] start = new long[1]; // written before go opens, read after
        long duration = TimeUnit.SECONDS.toNanos(seconds);
        List<Future<Caller>> callers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            Callable<Caller> caller = () -> {
                Caller c = new Caller();
                ready.countDown();
                go.await();
                long end = start[0] + duration;
                for (long i = thread; ; i += threads) {
                    long now = System.nanoTime();
                    if (now >= end) {
                        break; // the phase is over (open loop: behind schedule at the end, the rest stays unsent)
                    }
                    long due = now; // closed loop: each request as the last answer came
                    if (rate > 0) { // open loop: each request at its time, its latency counted from then
                        due = start[0] + (long) (i * 1e9 / rate);
                        if (due >= end) {
                            break;
                        }
                        while (now < due) {
                            LockSupport.parkNanos(due - now);
                            now = System.nanoTime();
                        }
                    }
                    int status = send(uri);
                    long done = System.nanoTime();
                    c.latency.record(done - due);
                    c.count(status);
                    c.lastDone = done;
                }
                return c;
            };
            callers.add(pool.submit(caller));
        }
        ready.await();
        Map<String, Long> threadsBefore = threadTicks(pid);
        long cpuBefore = cpuTicks(pid);
        start[0] = System.nanoTime();
        go.countDown();
        Result result = new Result();
        long lastDone = start[0];
        for (Future<Caller> f : callers) {
            Caller c = f.get(seconds + 120L, TimeUnit.SECONDS);
            result.latency.add(c.latency);
            result.ok += c.ok;
            result.limited += c.limited;
            result.other += c.other;
            lastDone = Math.max(lastDone, c.lastDone);
        }
        long cpuAfter = cpuTicks(pid);
        result.threadTicks = threadGroups(threadsBefore, threadTicks(pid));
        long counted = result.threadTicks.values().stream().mapToLong(Long::longValue).sum();
        if (pid != 0) {
            result.threadTicks.merge(ENDED, cpuAfter - cpuBefore - counted, Long::sum);
        }
        // closed loop: the whole phase, as before; open loop: until the last answer, so that a rate that is kept
        // up with reads as itself
        result.seconds = (rate > 0 ? lastDone - start[0] : System.nanoTime() - start[0]) / 1e9;
        result.cpuSeconds = (cpuAfter - cpuBefore) / (double) TICKS_PER_SECOND;
        result.asked = rate;
        pool.shutdownNow();
        return result;
    }

    /**
     * @return the user plus system CPU time of each thread of process {@code pid} in clock ticks, by thread id and name
     *         ({@code /proc/<pid>/task/<tid>/stat}), empty without a pid
     */
    private static Map<String, Long> threadTicks(long pid) throws IOException {
        Map<String, Long> ticks = new HashMap<>();
        if (pid == 0) {
            return ticks;
        }
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                String stat;
                try {
                    stat = Files.readString(task.resolve("stat"));
                } catch (IOException e) {
                    continue; // the thread ended meanwhile
                }
                String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                ticks.put(task.getFileName() + " " + name, ticks(stat));
            }
        }
        return ticks;
    }

    /**
     * @return the CPU ticks each group of threads spent between the two snapshots: threads grouped by name with their
     *         digits left out (a pool's threads are one group); a thread that ended meanwhile is not counted
     */
    private static Map<String, Long> threadGroups(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> groups = new HashMap<>();
        after.forEach((thread, ticks) -> {
            String tid = thread.substring(0, thread.indexOf(' '));
            String group = JAVA_NAMES.get(tid);
            if (group == null) { // made after the last look: a known Java name it is the start of (the kernel's is cut)
                String cut = thread.substring(thread.indexOf(' ') + 1);
                group = JAVA_NAMES.values().stream().filter(name -> name.startsWith(cut)).findFirst().orElse(cut);
            }
            group = group.replaceAll("[0-9]+", "#");
            groups.merge(group, ticks - before.getOrDefault(thread, 0L), Long::sum);
        });
        return groups;
    }

    /** @return the Java name of each of the server's threads by its kernel thread id ({@code jcmd Thread.print}), empty if none */
    private static Map<String, String> javaThreadNames(long pid) throws InterruptedException {
        Map<String, String> names = new HashMap<>();
        if (pid == 0) {
            return names;
        }
        Matcher line = Pattern.compile("^\"(.*)\" .* nid=0x([0-9a-f]+) ", Pattern.MULTILINE).matcher("");
        try {
            Process jcmd = new ProcessBuilder("jcmd", Long.toString(pid), "Thread.print").redirectErrorStream(true).start();
            String dump = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            jcmd.waitFor();
            line.reset(dump);
            while (line.find()) {
                names.put(Long.toString(Long.parseLong(line.group(2), 16)), line.group(1));
            }
        } catch (IOException e) {
            System.out.println("no thread names from jcmd (" + e + "): threads go by the kernel's names");
        }
        return names;
    }

    /** @return the answer's status, or -1 if there was none */
    private static int send(URI uri) throws InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                .header("X-Client", CLIENT_IDS[ThreadLocalRandom.current().nextInt(CLIENTS)]).GET().build();
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        }
    }

    /** @return the user plus system CPU time of process {@code pid} in clock ticks, or 0 without a pid */
    private static long cpuTicks(long pid) throws IOException {
        if (pid == 0) {
            return 0;
        }
        return ticks(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
    }

    /** @return the user plus system CPU time in clock ticks from a process's or thread's {@code stat} line */
    private static long ticks(String stat) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" "); // fields from the 3rd on
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime (14th), stime (15th)
    }

    private static String table(String title, Map<String, String> paths, Map<String, List<Result>> results, String baseLabel,
            int threads, int seconds, int rounds, boolean cpu) {
        StringBuilder out = new StringBuilder();
        out.append("### ").append(title).append("\n\n");
        out.append("| Endpoint | Path | Requests/s | Server CPU per request | ÷ ").append(baseLabel)
                .append(" | 200 | 429 | other | p50 | p99 |\n");
        out.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        List<Result> baseRounds = results.get(baseLabel);
        for (Map.Entry<String, List<Result>> entry : results.entrySet()) {
            List<Result> rs = entry.getValue();
            Result all = Result.sum(rs);
            double[] throughput = rs.stream().mapToDouble(Result::throughput).toArray();
            double[] cpuPerRequest = rs.stream().mapToDouble(Result::cpuMicrosPerRequest).toArray();
            double[] ratio = new double[rs.size()];
            for (int i = 0; i < rs.size(); i++) {
                ratio[i] = rs.get(i).cpuMicrosPerRequest() / baseRounds.get(i).cpuMicrosPerRequest();
            }
            out.append(String.format(Locale.ROOT, "| %s | `%s` | %s | %s | %s | %,d | %,d | %,d | %s | %s |%n", entry.getKey(),
                    paths.get(entry.getKey()), Rounds.spread(throughput, "%,.0f"), cpu ? Rounds.spread(cpuPerRequest, "%.0f µs") : "-",
                    cpu ? Rounds.spread(ratio, "%.2f") : "-", all.ok, all.limited, all.other, micros(all.latency.percentile(50)),
                    micros(all.latency.percentile(99))));
        }
        out.append(String.format(Locale.ROOT, "%nMedian (min–max) of %d rounds; in each round every endpoint ran %d s with %d client"
                + " threads (closed loop: each sends its next request when the previous answer arrives), in the order above,"
                + " reversed every other round, after rounds of warm-up until the JIT compiler settled. CPU per request is the"
                + " server process's user + system time over the requests it answered; the ratio is paired round by round.%n%n", rounds, seconds, threads));
        return out.toString();
    }

    private static String openTable(String title, Map<String, String> paths, Map<String, List<Result>> results, String baseLabel,
            int threads, int seconds, int rounds, double rate, boolean cpu) {
        StringBuilder out = new StringBuilder();
        out.append("### ").append(title).append(String.format(Locale.ROOT, ", %,.0f requests/s", rate)).append("\n\n");
        out.append("| Endpoint | Path | Achieved requests/s | Server CPU per request | ÷ ").append(baseLabel)
                .append(" | 200 | 429 | other | p50 | p99 | p99.9 | p50 added | p99 added |\n");
        out.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        List<Result> baseRounds = results.get(baseLabel);
        List<String> behind = new ArrayList<>();
        for (Map.Entry<String, List<Result>> entry : results.entrySet()) {
            List<Result> rs = entry.getValue();
            Result all = Result.sum(rs);
            double[] throughput = rs.stream().mapToDouble(Result::throughput).toArray();
            double[] cpuPerRequest = rs.stream().mapToDouble(Result::cpuMicrosPerRequest).toArray();
            double[] ratio = new double[rs.size()];
            double[] addedP50 = new double[rs.size()];
            double[] addedP99 = new double[rs.size()];
            for (int i = 0; i < rs.size(); i++) {
                Result r = rs.get(i);
                Result b = baseRounds.get(i);
                ratio[i] = r.cpuMicrosPerRequest() / b.cpuMicrosPerRequest();
                addedP50[i] = r.latency.percentile(50) - b.latency.percentile(50);
                addedP99[i] = r.latency.percentile(99) - b.latency.percentile(99);
                if (r.throughput() < KEPT_UP * rate) {
                    behind.add(String.format(Locale.ROOT, "%s in round %d (%,.0f/s)", entry.getKey(), i + 1, r.throughput()));
                }
            }
            boolean isBase = entry.getKey().equals(baseLabel);
            out.append(String.format(Locale.ROOT, "| %s | `%s` | %s | %s | %s | %,d | %,d | %,d | %s | %s | %s | %s | %s |%n",
                    entry.getKey(), paths.get(entry.getKey()), Rounds.spread(throughput, "%,.0f"),
                    cpu ? Rounds.spread(cpuPerRequest, "%.0f µs") : "-", cpu ? Rounds.spread(ratio, "%.2f") : "-", all.ok,
                    all.limited, all.other, micros(all.latency.percentile(50)), micros(all.latency.percentile(99)),
                    micros(all.latency.percentile(99.9)), isBase ? "-" : added(median(addedP50)),
                    isBase ? "-" : added(median(addedP99))));
        }
        out.append(String.format(Locale.ROOT, "%nMedian (min–max) of %d rounds; in each round every endpoint ran %d s at a fixed"
                + " rate of %,.0f requests/s (open loop: each request sent when due, by one of %d client threads, whether or not"
                + " earlier ones were answered), in the order above, reversed every other round, after rounds of warm-up at full"
                + " speed until the JIT compiler settled. Latency runs from each request's due time, so that waiting behind a"
                + " slow answer counts; p50, p99 and p99.9 are over all rounds. CPU per request is the server process's user + system time over the requests it"
                + " answered; the ratio is paired round by round, and so is the latency added over %s at p50 and p99"
                + " (the median of the rounds' differences).%n", rounds, seconds, rate, threads, baseLabel));
        if (!behind.isEmpty()) {
            out.append(String.format(Locale.ROOT, "%n**The server did not keep up** (below %.0f %% of %,.0f requests/s): %s.%n",
                    KEPT_UP * 100, rate, String.join(", ", behind)));
        }
        out.append('\n');
        if (cpu) {
            out.append(byThread(results, baseLabel));
        }
        return out.toString();
    }

    /**
     * The server's CPU per request by group of threads, the median of the rounds, for each endpoint and as the difference to the
     * base: where the extra CPU of an endpoint goes (kernel time included, unlike a sampling profiler's).
     */
    private static String byThread(Map<String, List<Result>> results, String baseLabel) {
        Map<String, Map<String, Double>> perRequest = new LinkedHashMap<>(); // endpoint -> group -> µs per request
        Map<String, Double> largest = new HashMap<>();
        results.forEach((label, rounds) -> {
            Map<String, double[]> byRound = new HashMap<>();
            for (int i = 0; i < rounds.size(); i++) {
                Result r = rounds.get(i);
                for (Map.Entry<String, Long> e : r.threadTicks.entrySet()) {
                    byRound.computeIfAbsent(e.getKey(), group -> new double[rounds.size()])[i] =
                            e.getValue() * 1e6 / TICKS_PER_SECOND / Math.max(1, r.requests());
                }
            }
            Map<String, Double> micros = new HashMap<>();
            byRound.forEach((group, values) -> {
                micros.put(group, median(values));
                largest.merge(group, median(values), Math::max);
            });
            perRequest.put(label, micros);
        });
        List<String> shown = largest.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                .limit(THREAD_ROWS).map(Map.Entry::getKey).sorted(Comparator.naturalOrder()).toList();
        StringBuilder out = new StringBuilder("| Server threads (CPU µs per request) |");
        List<String> labels = new ArrayList<>(results.keySet());
        for (String label : labels) {
            out.append(' ').append(label).append(" |");
        }
        out.append("\n|---|").append("---:|".repeat(labels.size())).append('\n');
        List<String> rows = new ArrayList<>(shown);
        rows.remove(ENDED);
        rows.addAll(List.of(OTHERS, ENDED, ALL));
        for (String group : rows) {
            boolean summary = group.equals(OTHERS) || group.equals(ENDED) || group.equals(ALL);
            out.append("| ").append(summary ? group : "`" + group + "`").append(" |");
            for (String label : labels) {
                double us = threadMicros(perRequest.get(label), group, shown);
                double base = threadMicros(perRequest.get(baseLabel), group, shown);
                out.append(label.equals(baseLabel) ? String.format(Locale.ROOT, " %.1f |", us)
                        : String.format(Locale.ROOT, " %.1f (%+.1f) |", us, us - base));
            }
            out.append('\n');
        }
        out.append(String.format(Locale.ROOT, "%nThe server's threads by name, digits left out (a pool is one row), from the"
                + " kernel's counters for each thread (user + system time, %d ticks a second): the median of the rounds; in"
                + " brackets, the difference to %s. Threads that ended during a phase are one row: the process's CPU less"
                + " its live threads'.%n%n", TICKS_PER_SECOND, baseLabel));
        return out.toString();
    }

    private static double threadMicros(Map<String, Double> micros, String group, List<String> shown) {
        return switch (group) {
            case ALL -> micros.values().stream().mapToDouble(Double::doubleValue).sum();
            case OTHERS -> micros.entrySet().stream().filter(e -> !shown.contains(e.getKey()) && !e.getKey().equals(ENDED))
                    .mapToDouble(Map.Entry::getValue).sum();
            default -> micros.getOrDefault(group, 0.0);
        };
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static String added(double nanos) {
        return String.format(Locale.ROOT, "%+.2f ms", nanos / 1e6);
    }

    private static String micros(long nanos) {
        return nanos < 0 ? "-" : String.format(Locale.ROOT, "%.2f ms", nanos / 1e6);
    }

    private static final class Caller {
        final Histogram latency = new Histogram();
        long ok;
        long limited;
        long other;
        long lastDone;

        void count(int status) {
            if (status == 200) {
                ok++;
            } else if (status == 429) {
                limited++;
            } else {
                other++;
            }
        }
    }

    private static final class Result {
        final Histogram latency = new Histogram();
        long ok;
        long limited;
        long other;
        double seconds;
        double cpuSeconds;
        double asked;
        /** CPU ticks by group of the server's threads. */
        Map<String, Long> threadTicks = Map.of();

        static Result sum(List<Result> rounds) {
            Result all = new Result();
            for (Result r : rounds) {
                all.latency.add(r.latency);
                all.ok += r.ok;
                all.limited += r.limited;
                all.other += r.other;
            }
            return all;
        }

        long requests() {
            return ok + limited + other;
        }

        double throughput() {
            return requests() / seconds;
        }

        double cpuMicrosPerRequest() {
            return requests() == 0 ? Double.NaN : cpuSeconds * 1e6 / requests();
        }

        String row() {
            return String.format(Locale.ROOT, "%.0f req/s%s, server CPU %.0f µs/request, 200=%d 429=%d other=%d, p50=%s p99=%s"
                    + " p99.9=%s", throughput(), asked > 0 && throughput() < KEPT_UP * asked
                            ? String.format(Locale.ROOT, " (asked %.0f: not kept up)", asked) : "",
                    cpuMicrosPerRequest(), ok, limited, other, micros(latency.percentile(50)), micros(latency.percentile(99)),
                    micros(latency.percentile(99.9)));
        }
    }
}
