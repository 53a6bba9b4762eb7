package io.tollgate.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
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
 * <p>Every endpoint is warmed up for a round that is not counted (closed loop in both modes: the server compiles
 * meanwhile), then measured in {@code rounds} rounds, the endpoints interleaved within each round and their order
 * reversed every other round (a, b, c, c, b, a, a, b, c, ...), so that the machine's drift touches them all alike.
 * Each phase records requests per second, status codes, latency, and, given the server's process id, the server's
 * CPU time per request from the kernel's counters for that process ({@code /proc/<pid>/stat}): far steadier than
 * throughput on a shared machine. The report gives medians over the rounds with their minimum and maximum, and each
 * endpoint's CPU per request as a ratio of that of the endpoint named {@code base-label}, paired round by round; in
 * the open loop also p99.9 and the latency each endpoint adds to the base's at p50 and p99, paired round by round.
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
        for (Map.Entry<String, String> endpoint : paths.entrySet()) { // warm-up: a round that is not counted (the server compiles meanwhile)
            System.out.println("warm-up, " + endpoint.getKey() + ": " + run(base.resolve(endpoint.getValue()), threads, seconds, 0, pid).row());
        }
        List<String> order = new ArrayList<>(paths.keySet());
        List<String> reversed = new ArrayList<>(order);
        Collections.reverse(reversed);
        for (int round = 1; round <= rounds; round++) {
            for (String label : round % 2 == 1 ? order : reversed) {
                Result result = run(base.resolve(paths.get(label)), threads, seconds, rate, pid);
                results.get(label).add(result);
                System.out.println("round " + round + ", " + label + ": " + result.row());
            }
        }
        String table = rate > 0 ? openTable(title, paths, results, baseLabel, threads, seconds, rounds, rate, pid != 0)
                : table(title, paths, results, baseLabel, threads, seconds, rounds, pid != 0);
        System.out.println(table);
        Files.createDirectories(report.toAbsolutePath().getParent());
        Files.writeString(report, table, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
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
        // closed loop: the whole phase, as before; open loop: until the last answer, so that a rate that is kept
        // up with reads as itself
        result.seconds = (rate > 0 ? lastDone - start[0] : System.nanoTime() - start[0]) / 1e9;
        result.cpuSeconds = (cpuAfter - cpuBefore) / (double) TICKS_PER_SECOND;
        result.asked = rate;
        pool.shutdownNow();
        return result;
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
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
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
                + " reversed every other round, after a round of warm-up. CPU per request is the server process's user + system"
                + " time over the requests it answered; the ratio is paired round by round.%n%n", rounds, seconds, threads));
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
                + " earlier ones were answered), in the order above, reversed every other round, after a round of warm-up at full"
                + " speed. Latency runs from each request's due time, so that waiting behind a slow answer counts; p50, p99 and"
                + " p99.9 are over all rounds. CPU per request is the server process's user + system time over the requests it"
                + " answered; the ratio is paired round by round, and so is the latency added over %s at p50 and p99"
                + " (the median of the rounds' differences).%n", rounds, seconds, rate, threads, baseLabel));
        if (!behind.isEmpty()) {
            out.append(String.format(Locale.ROOT, "%n**The server did not keep up** (below %.0f %% of %,.0f requests/s): %s.%n",
                    KEPT_UP * 100, rate, String.join(", ", behind)));
        }
        out.append('\n');
        return out.toString();
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
