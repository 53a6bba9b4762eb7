package io.tollgate.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * A closed-loop HTTP load generator: {@code threads} callers, each sending its next request when
 * the previous answer arrives, for a fixed time per endpoint; reports requests per second, the
 * status codes, and p50/p99 latency. Each endpoint is warmed up first, then measured in turn.
 *
 * <pre>java io.tollgate.bench.HttpLoad &lt;base-url&gt; &lt;threads&gt; &lt;seconds&gt; &lt;report.md&gt; &lt;label=path&gt;...</pre>
 */
public final class HttpLoad {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    private HttpLoad() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 5) {
            System.err.println("usage: HttpLoad <base-url> <threads> <seconds> <report.md> <label=path>...");
            System.exit(2);
        }
        URI base = URI.create(args[0].endsWith("/") ? args[0] : args[0] + "/");
        int threads = Integer.parseInt(args[1]);
        int seconds = Integer.parseInt(args[2]);
        Path report = Path.of(args[3]);
        List<String[]> endpoints = new ArrayList<>();
        for (int i = 4; i < args.length; i++) {
            endpoints.add(args[i].split("=", 2));
        }
        List<Result> results = new ArrayList<>();
        for (String[] endpoint : endpoints) {
            run(base.resolve(endpoint[1]), threads, Math.max(2, seconds / 3)); // warm-up
        }
        for (String[] endpoint : endpoints) {
            Result result = run(base.resolve(endpoint[1]), threads, seconds);
            result.label = endpoint[0];
            result.path = endpoint[1];
            results.add(result);
            System.out.println(result.row());
        }
        String table = table(results, threads, seconds);
        System.out.println(table);
        Files.createDirectories(report.toAbsolutePath().getParent());
        Files.writeString(report, table);
    }

    private static Result run(URI uri, int threads, int seconds) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Caller>> callers = new ArrayList<>();
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).GET().build();
        for (int t = 0; t < threads; t++) {
            callers.add(pool.submit(() -> {
                Caller caller = new Caller();
                start.await();
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
                while (System.nanoTime() < end) {
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
        pool.shutdownNow();
        return result;
    }

    private static String table(List<Result> results, int threads, int seconds) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "| Endpoint | Path | Requests/s | 200 | 429 | other | p50 | p99 |%n"));
        out.append("|---|---|---:|---:|---:|---:|---:|---:|\n");
        for (Result r : results) {
            out.append(String.format(Locale.ROOT, "| %s | `%s` | %,.0f | %,d | %,d | %,d | %s | %s |%n", r.label, r.path,
                    r.throughput(), r.ok, r.limited, r.other, micros(r.latency.percentile(50)), micros(r.latency.percentile(99))));
        }
        out.append(String.format(Locale.ROOT, "%n%d client threads, %d s per endpoint after a warm-up of each.%n", threads, seconds));
        if (results.size() >= 2) {
            out.append(String.format(Locale.ROOT, "%s keeps %.0f %% of %s's throughput.%n", results.get(0).label,
                    100 * results.get(0).throughput() / results.get(1).throughput(), results.get(1).label));
        }
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
        String label;
        String path;
        long ok;
        long limited;
        long other;
        double seconds;

        double throughput() {
            return (ok + limited + other) / seconds;
        }

        String row() {
            return String.format(Locale.ROOT, "%s: %.0f req/s, 200=%d 429=%d other=%d, p50=%s p99=%s", label, throughput(), ok,
                    limited, other, micros(latency.percentile(50)), micros(latency.percentile(99)));
        }
    }
}
