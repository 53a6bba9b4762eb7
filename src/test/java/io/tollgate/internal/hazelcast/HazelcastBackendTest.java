package io.tollgate.internal.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.testing.Await;
import io.tollgate.testing.HazelcastTestCluster;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Tollgate's own instance that shuts down is replaced: while a new one cannot be started, the store's cluster says why
 * (what the readiness check shows), and the next attempt comes later; once one starts, the store decides with it.
 */
@Tag("hazelcast")
@Isolated
class HazelcastBackendTest {

    private static final TokenBucket BUCKET = TokenBucket.of(Limit.of(5, 1, Duration.ofHours(1)));

    @Test
    void aDeadInstanceIsReplacedAndUntilThenTheClusterSaysWhy() throws Exception {
        int port = HazelcastTestCluster.freePorts(1).get(0);
        String name = "tollgate-test-" + java.util.UUID.randomUUID();
        AtomicInteger attempts = new AtomicInteger();
        HazelcastInstance first = member(name, port);
        HazelcastBackend backend = new HazelcastBackend(first, "m",
                instance -> new HazelcastBucketStore(instance, "m", true, Duration.ofSeconds(5)),
                () -> {
                    if (attempts.incrementAndGet() < 3) {
                        throw new IllegalStateException("not yet (attempt " + attempts.get() + ")");
                    }
                    return member(name, port);
                }, "the test's member", () -> "the test's member list", HazelcastInstance::shutdown);
        try {
            assertThat(decide(backend).remaining()).isEqualTo(4);
            assertThat(backend.cluster().problem()).isNull();
            first.getLifecycleService().terminate();

            Await.until("the problem told while no new member starts", Duration.ofSeconds(30),
                    () -> String.valueOf(backend.cluster().problem()).contains("failed 2 time(s), last: java.lang.IllegalStateException"));
            Await.until("a new member deciding", Duration.ofSeconds(60), () -> backend.cluster().problem() == null);
            assertThat(attempts.get()).isEqualTo(3);
            HazelcastInstance second = backend.instance();
            assertThat(second).isNotSameAs(first);
            assertThat(decide(backend).remaining()).as("a bucket of the new member").isEqualTo(4);
        } finally {
            backend.close();
        }
        assertThat(Hazelcast.getAllHazelcastInstances()).as("the new member stopped with the store")
                .noneMatch(instance -> instance.getConfig().getClusterName().equals(name));
    }

    private static Outcome decide(HazelcastBackend backend) throws Exception {
        return backend.store().acquire("k", BUCKET, 1).toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    private static HazelcastInstance member(String cluster, int port) {
        return Hazelcast.newHazelcastInstance(HazelcastTestCluster.memberConfig(cluster, 0, port, List.of("127.0.0.1:" + port), true));
    }
}
