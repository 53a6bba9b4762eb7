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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A closed-loop HTTP load generator: {@code threads} callers, each sending its next request when
 * the previous answer arrives. Every endpoint is warmed up for a round that is not counted, then
 * measured in {@code rounds} rounds, the endpoints interleaved within each round (a, b, c, a, b, c,
 * ...), so that the machine's drift touches them all alike. Each phase records requests per second,
 * status codes, latency, and, given the server's process id, the server's CPU time per request from
 * the kernel's counters for that process ({@code /proc/<pid>/stat}): far steadier than throughput on
 * a shared machine. The report gives medians over the rounds with their minimum and maximum, and each
 * endpoint's CPU per request as a ratio of that of the endpoint named {@code base-label}, paired round
 * by round.
 *
 * <p>Every request carries {@code X-Client: c<n>}, {@code n} drawn from 100 000, for rules keyed by
 * client.
 *
 * <pre>java io.tollgate.bench.HttpLoad &lt;base-url&gt; &lt;threads&gt; &lt;seconds&gt; &lt;rounds&gt; &lt;server-pid or 0&gt;
 *     &lt;report.md&gt; &lt;title&gt; &lt;base-label&gt; &lt;label=path&gt;...</pre>
 */
public final class HttpLoad {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private static final int CLIENTS = 100_000;
    /** The kernel's clock ticks per second for {@code /proc/<pid>/stat} (USER_HZ: 100 on Linux). */
    private static final long TICKS_PER_SECOND = Long.getLong("tollgate.bench.clk.tck", 100);

    private HttpLoad() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 9) {
            System.err.println("usage: HttpLoad <base-url> <threads> <seconds> <rounds> <server-pid or 0> <report.md> <title>"
                    + " <base-label> <label=path>...");
            System.exit(2);
        }
        URI base = URI.create(args[0].endsWith("/") ? args[0] : args[0] + "/");
        int threads = Integer.parseInt(args[1]);
        int seconds = Integer.parseInt(args[2]);
        int rounds = Integer.parseInt(args[3]);
        long pid = Long.parseLong(args[4]);
        Path report = Path.of(args[5]);
        String title = args[6];
        String baseLabel = args[7];
        Map<String, List<Result>> results = new LinkedHashMap<>();
        Map<String, String> paths = new LinkedHashMap<>();
        for (int i = 8; i < args.length; i++) {
            String[] endpoint = args[i].split("=", 2);
            paths.put(endpoint[0], endpoint[1]);
            results.put(endpoint[0], new ArrayList<>());
        }
        if (!paths.containsKey(baseLabel)) {
            throw new IllegalArgumentException("the base '" + baseLabel + "' is not one of the endpoints " + paths.keySet());
        }
        for (String path : paths.values()) {
            run(base.resolve(path), threads, seconds, pid); // warm-up: a round that is not counted (the server compiles meanwhile)
        }
        for (int round = 1; round <= rounds; round++) {
            for (Map.Entry<String, String> endpoint : paths.entrySet()) {
                Result result = run(base.resolve(endpoint.getValue()), threads, seconds, pid);
                results.get(endpoint.getKey()).add(result);
                System.out.println("round " + round + ", " + endpoint.getKey() + ": " + result.row());
            }
        }
        String table = table(title, paths, results, baseLabel, threads, seconds, rounds, pid != 0);
        System.out.println(table);
        Files.createDirectories(report.toAbsolutePath().getParent());
        Files.writeString(report, table, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    private static Result run(URI uri, int threads, int seconds, long pid) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Caller>> callers = new ArrayList<>();
        String[] clients = new String[CLIENTS];
        for (int i = 0; i < CLIENTS; i++) {
            clients[i] = "c" + i;
        }
        for (int t = 0; t < threads; t++) {
            callers.add(pool.submit(() -> {
                Caller caller = new Caller();
                start.await();
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
                while (System.nanoTime() < end) {
                    HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                            .header("X-Client", clients[ThreadLocalRandom.current().nextInt(CLIENTS)]).GET().build();
                    long sent = System.nanoTime();
                    int status;
                    try {
                        status = HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
                    } catch (IOException e) {
                        status = -1;
                    }
                    caller.latency.record(System.nanoTime() - sent);
                    caller.count(status);
                }
                return caller;
            }));
        }
        long cpuBefore = cpuTicks(pid);
        long began = System.nanoTime();
        start.countDown();
        Result result = new Result();
        for (Future<Caller> f : callers) {
            Caller c = f.get(seconds + 120L, TimeUnit.SECONDS);
            result.latency.add(c.latency);
            result.ok += c.ok;
            result.limited += c.limited;
            result.other += c.other;
        }
        result.seconds = (System.nanoTime() - began) / 1e9;
        result.cpuSeconds = (cpuTicks(pid) - cpuBefore) / (double) TICKS_PER_SECOND;
        pool.shutdownNow();
        return result;
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
            Result all = new Result();
            for (Result r : rs) {
                all.latency.add(r.latency);
                all.ok += r.ok;
                all.limited += r.limited;
                all.other += r.other;
            }
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
                + " threads, in the order above, after a round of warm-up. CPU per request is the server process's user + system"
                + " time over the requests it answered; the ratio is paired round by round.%n%n", rounds, seconds, threads));
        return out.toString();
    }

    private static String micros(long nanos) {
        return nanos < 0 ? "-" : String.format(Locale.ROOT, "%.2f ms", nanos / 1e6);
    }

    private static final class Caller {
        final Histogram latency = new Histogram();
        long ok;
        long limited;
        long other;

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
            return String.format(Locale.ROOT, "%.0f req/s, server CPU %.0f µs/request, 200=%d 429=%d other=%d, p50=%s p99=%s",
                    throughput(), cpuMicrosPerRequest(), ok, limited, other, micros(latency.percentile(50)),
                    micros(latency.percentile(99)));
        }
    }
}
