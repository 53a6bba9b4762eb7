package io.tollgate.internal.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.testing.HazelcastTestCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An external cluster's configuration names the serialization factory by class, as the README shows: by its public
 * name, or by the name Tollgate 0.1 gave it. Either way the members read Tollgate's processors by type id, and a
 * decision made on one member for a key another owns (the processor and its backup cross the wire) counts exactly.
 */
@Tag("hazelcast")
@Execution(ExecutionMode.CONCURRENT) // mostly waits: runs beside other classes
@ResourceLock("FactoryNamesTest") // and its own tests one after another
class FactoryNamesTest {

    private static final TokenBucket BUCKET = TokenBucket.of(Limit.of(3, 1, Duration.ofHours(1)));

    @ParameterizedTest
    @ValueSource(strings = {"io.tollgate.hazelcast.TollgateSerialization", "io.tollgate.internal.hazelcast.TollgateSerialization"})
    void membersConfiguredByEitherNameReadTheProcessorsByTypeId(String factoryClass) throws Exception {
        String cluster = "tollgate-factory-" + UUID.randomUUID();
        List<Integer> ports = HazelcastTestCluster.freePorts(2);
        List<String> addresses = ports.stream().map(port -> "127.0.0.1:" + port).collect(Collectors.toList());
        List<HazelcastInstance> members = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                Config config = HazelcastTestCluster.memberConfig(cluster, i, ports.get(i), addresses, false);
                config.getSerializationConfig().addDataSerializableFactoryClass(Serialization.FACTORY_ID, factoryClass);
                assertThat(Serialization.isRegistered(config.getSerializationConfig())).as("registered by name").isTrue();
                members.add(Hazelcast.newHazelcastInstance(config));
            }
            HazelcastInstance caller = members.get(0);
            HazelcastInstance owner = members.get(1);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!HazelcastTestCluster.settled(caller, 2) && System.nanoTime() < deadline) {
                TimeUnit.MILLISECONDS.sleep(50);
            }
            String key = keyOwnedBy(caller, owner);
            try (HazelcastBucketStore store = new HazelcastBucketStore(caller, BucketMapConfig.DEFAULT_MAP_NAME, true)) {
                List<Long> remaining = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    Outcome outcome = store.acquire(key, BUCKET, 1).toCompletableFuture().get(30, TimeUnit.SECONDS);
                    remaining.add(outcome.allowed() ? outcome.remaining() : -1);
                }
                assertThat(remaining).as("tokens left after each request; -1: denied").containsExactly(2L, 1L, 0L, -1L);
            }
        } finally {
            members.forEach(member -> member.getLifecycleService().terminate());
        }
    }

    private static String keyOwnedBy(HazelcastInstance caller, HazelcastInstance owner) {
        for (int i = 0; ; i++) {
            String key = BucketKeys.of("factory", Integer.toString(i));
            if (caller.getPartitionService().getPartition(key).getOwner().getUuid()
                    .equals(owner.getCluster().getLocalMember().getUuid())) {
                return key;
            }
        }
    }
}
