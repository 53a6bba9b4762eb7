package io.tollgate.bench;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.cluster.Member;
import io.tollgate.internal.core.BucketKeys;
import jakarta.json.Json;
import jakarta.json.JsonObjectBuilder;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * One rate-limit decision (cost 1) by each implementation, on a 3-member cluster in this JVM
 * (127.0.0.1; or on hosts of their own, see {@link BenchCluster}), from the scenario's caller. The
 * whole matrix is run by {@link Suite}; this class can also be run on its own with JMH's usual
 * options, choosing valid parameters with {@code -p}
 * ({@code -p impl=bucket4j -p keys=hot -p topology=client -p load=denied-heavy -t 16}): the
 * clustered implementations take {@code local-owner}, {@code remote-owner} or {@code client},
 * {@code memory} only {@code in-jvm}, and other combinations fail at set-up.
 *
 * <ul>
 *   <li>{@code keys}: {@code hot}, one key; {@code users}, one of 100 000 keys drawn per call.</li>
 *   <li>{@code topology}: {@code local-owner}, a member calls and owns the hot key (for
 *       {@code users}: all 100 000 keys are ones it owns); {@code remote-owner}, a member calls
 *       and another owns the hot key (for {@code users}: the keys fall where the hash puts them,
 *       a third of them on the caller); {@code client}, a Hazelcast client (smart routing) calls,
 *       and a member owns the key; {@code in-jvm}, no cluster, for {@code memory} only.</li>
 *   <li>{@code load}: see {@link Load}.</li>
 * </ul>
 *
 * <p>Besides JMH's score, each trial times every {@value #SAMPLE_EVERY}th decision of each thread
 * in the measurement iterations and writes the latency percentiles, and the fraction of decisions
 * allowed, to {@code <tollgate.bench.latency.dir>/<impl>_<keys>_<topology>_<load>_t<threads>_<mode>.json}
 * (default directory {@code target/bench/latency}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 1, time = 2)
@Measurement(iterations = 3, time = 2)
public class ComparisonBenchmark {

    static final int MEMBERS = 3;
    static final int USERS = 100_000;
    private static final int BASE_PORT = 5921;
    private static final String RULE = "bench";
    static final int SAMPLE_EVERY = 8;
    static final String LATENCY_DIR_PROPERTY = "tollgate.bench.latency.dir";

    @Param({"tollgate-plain", "tollgate-default", "tollgate-bare", "bucket4j", "get-put", "cas", "lock", "memory"})
    public String impl;

    @Param({"hot", "users"})
    public String keys;

    @Param({"local-owner", "remote-owner", "client", "in-jvm"})
    public String topology;

    @Param({"allowed-heavy", "denied-heavy"})
    public String load;

    private BenchCluster cluster;
    private ComparedLimiter limiter;
    private boolean hot;
    private String hotKey;
    private String[] userKeys;
    private final List<Recorder> recorders = new CopyOnWriteArrayList<>();
    private boolean measuring;

    /** Each thread's latencies and counts. */
    @State(Scope.Thread)
    public static class Recorder {
        final Histogram histogram = new Histogram();
        long decisions;
        long allowed;
        int tick;
        boolean measuring;

        @Setup(Level.Trial)
        public void register(ComparisonBenchmark benchmark) {
            benchmark.recorders.add(this);
        }

        /** Keeps what the measurement iterations record, not the warm-up's. */
        @Setup(Level.Iteration)
        public void iteration(IterationParams params) {
            if (params.getType() == IterationType.MEASUREMENT && !measuring) {
                histogram.reset();
                decisions = 0;
                allowed = 0;
                measuring = true;
            }
        }
    }

    @Setup(Level.Trial)
    public void start() {
        Impl implementation = Impl.of(impl);
        hot = "hot".equals(keys);
        if (!hot && !"users".equals(keys)) {
            throw new IllegalArgumentException("unknown key space '" + keys + "'");
        }
        HazelcastInstance caller = null;
        if (!implementation.clustered()) {
            if (!"in-jvm".equals(topology)) {
                throw new IllegalArgumentException(impl + " runs in this JVM only: use topology=in-jvm");
            }
            hotKey = BucketKeys.of(RULE, "hot");
            userKeys = userKeys(null, null);
        } else {
            boolean fromClient = "client".equals(topology);
            cluster = new BenchCluster(MEMBERS, BASE_PORT, Impl::configureMember, !fromClient);
            int owner;
            switch (topology) {
                case "local-owner":
                    caller = cluster.members.get(0);
                    owner = 0;
                    break;
                case "remote-owner":
                    caller = cluster.members.get(0);
                    owner = 1;
                    break;
                case "client":
                    caller = cluster.client(Impl::configureClient);
                    owner = 1;
                    break;
                default:
                    throw new IllegalArgumentException(impl + " needs a topology of local-owner, remote-owner or client, not '" + topology + "'");
            }
            cluster.awaitWireVersion();
            Member ownerMember = cluster.member(caller, owner);
            hotKey = BenchCluster.keyOwnedBy(caller, ownerMember, i -> BucketKeys.of(RULE, "hot-" + i));
            userKeys = userKeys(caller, "local-owner".equals(topology) ? ownerMember : null);
        }
        limiter = implementation.open(caller, Load.of(load));
        hotKey = limiter.callerKey(hotKey); // the keys were placed by their buckets' keys in the map
        for (int i = 0; i < userKeys.length; i++) {
            userKeys[i] = limiter.callerKey(userKeys[i]);
        }
    }

    /** @return {@value #USERS} keys; all owned by {@code owner}, as {@code caller} sees it, if it is not {@code null} */
    private static String[] userKeys(HazelcastInstance caller, Member owner) {
        List<String> chosen = new ArrayList<>(USERS);
        for (int i = 0; chosen.size() < USERS; i++) {
            String key = BucketKeys.of(RULE, "user-" + i);
            if (owner == null || owner.equals(BenchCluster.ownerOf(caller, key))) {
                chosen.add(key);
            }
        }
        return chosen.toArray(new String[0]);
    }

    /** What packets wait in the relays (on a network of {@link BenchCluster#DELAY_PROPERTY}) and CPU time count from the measurement on. */
    @Setup(Level.Iteration)
    public void iteration(IterationParams params) {
        if (cluster != null && params.getType() == IterationType.MEASUREMENT && !measuring) {
            cluster.startMeasuring();
            measuring = true;
        }
    }

    @TearDown(Level.Trial)
    public void stop(BenchmarkParams params) throws IOException {
        try {
            BenchCluster.Measured measured = cluster == null ? null : cluster.measured(); // before the limiter closes
            if (limiter != null) {
                if (limiter.failures() > 0) {
                    System.out.printf("%n%s: %s, answered by fail-open%n", impl, limiter.describeFailures());
                }
                limiter.close();
            }
            writeLatencies(params, measured);
        } finally {
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    private void writeLatencies(BenchmarkParams params, BenchCluster.Measured measured) throws IOException {
        Histogram all = new Histogram();
        long decisions = 0;
        long allowed = 0;
        for (Recorder recorder : recorders) {
            all.add(recorder.histogram);
            decisions += recorder.decisions;
            allowed += recorder.allowed;
        }
        Histogram relayed = measured == null ? new Histogram() : measured.relayed();
        JsonObjectBuilder cpu = Json.createObjectBuilder();
        if (measured != null) {
            measured.cpuByJvm().forEach((jvm, groups) -> {
                JsonObjectBuilder byGroup = Json.createObjectBuilder();
                groups.forEach(byGroup::add);
                cpu.add(jvm, byGroup);
            });
        }
        String mode = params.getMode().shortLabel();
        Path dir = Path.of(System.getProperty(LATENCY_DIR_PROPERTY, "target/bench/latency"));
        Files.createDirectories(dir);
        Path file = dir.resolve(String.join("_", impl, keys, topology, load, "t" + params.getThreads(), mode) + ".json");
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            Json.createWriter(out).writeObject(Json.createObjectBuilder()
                    .add("impl", impl).add("keys", keys).add("topology", topology).add("load", load)
                    .add("threads", params.getThreads()).add("mode", mode)
                    .add("sampleEvery", SAMPLE_EVERY).add("samples", all.count())
                    .add("decisions", decisions).add("allowedFraction", decisions == 0 ? 0 : (double) allowed / decisions)
                    .add("meanNs", all.count() == 0 ? 0 : all.mean())
                    .add("p50Ns", all.percentile(50)).add("p90Ns", all.percentile(90))
                    .add("p99Ns", all.percentile(99)).add("p999Ns", all.percentile(99.9)).add("maxNs", all.max())
                    .add("delayMicros", Long.getLong(BenchCluster.DELAY_PROPERTY, 0))
                    .add("relayedP50Ns", relayed.count() == 0 ? 0 : relayed.percentile(50))
                    .add("relayedP99Ns", relayed.count() == 0 ? 0 : relayed.percentile(99))
                    .add("relayedChunks", relayed.count())
                    .add("cpuNs", cpu)
                    .build());
        }
    }

    @Benchmark
    public boolean decide(Recorder recorder) throws Exception {
        String key = hot ? hotKey : userKeys[ThreadLocalRandom.current().nextInt(USERS)];
        boolean allowed;
        if (++recorder.tick % SAMPLE_EVERY != 0) {
            allowed = limiter.tryAcquire(key, 1);
        } else {
            long start = System.nanoTime();
            allowed = limiter.tryAcquire(key, 1);
            recorder.histogram.record(System.nanoTime() - start);
        }
        recorder.decisions++;
        if (allowed) {
            recorder.allowed++;
        }
        return allowed;
    }
}
