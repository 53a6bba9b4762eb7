package io.tollgate.bench;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.spi.impl.SerializationServiceSupport;
import com.hazelcast.map.EntryProcessor;
import com.hazelcast.map.IMap;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.internal.hazelcast.BucketProcessors;
import java.time.Duration;
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

/**
 * How Tollgate's entry processor travels: by type id ({@code IdentifiedDataSerializable}), by class
 * name ({@code DataSerializable}) or with Java serialization. Measures the processor's serialized
 * size, its serialize + deserialize round trip, and whole decisions on a remote owner.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class SerializationBenchmark {

    @Param({"identified", "data-serializable", "java"})
    public String form;

    private BenchCluster cluster;
    private SerializationService serialization;
    private IMap<String, long[]> map;
    private String remoteKey;
    private final TokenBucket bucket = TokenBucket.of(Limit.of(1_000_000_000L, 1_000_000_000L, Duration.ofSeconds(1)));

    @Setup(Level.Trial)
    public void start() {
        cluster = new BenchCluster(2, 5911);
        HazelcastInstance caller = cluster.members.get(0);
        serialization = ((SerializationServiceSupport) caller).getSerializationService();
        map = caller.getMap("serialization-bench");
        // the partition of the whole store key, not of its suffix, decides the owner
        remoteKey = BenchCluster.keyOwnedBy(cluster.members.get(1), i -> BucketKeys.of("bench", "remote-" + i));
        Data data = serialization.toData(processor());
        System.out.printf("%n%s processor: %d bytes serialized%n", form, data.totalSize());
    }

    @TearDown(Level.Trial)
    public void stop() {
        cluster.close();
    }

    private EntryProcessor<String, long[], long[]> processor() {
        switch (form) {
            case "identified":
                return BucketProcessors.create(bucket, 1, true);
            case "data-serializable":
                return BucketProcessors.create(bucket, 1, false);
            default:
                return new JavaSerializedProcessor(bucket, 1);
        }
    }

    /** Serialize and deserialize the processor, as every remote call does once each way. */
    @Benchmark
    public Object roundTrip() {
        return serialization.toObject(serialization.toData(processor()));
    }

    /** One whole decision on a key owned by the other member, single-threaded. */
    @Benchmark
    public long[] remoteDecision() {
        return map.executeOnKey(remoteKey, processor());
    }
}
