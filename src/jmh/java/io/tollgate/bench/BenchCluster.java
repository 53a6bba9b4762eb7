package io.tollgate.bench;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.tollgate.hazelcast.TollgateSerialization;
import io.tollgate.internal.hazelcast.BucketMapConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/** Hazelcast members in this JVM for benchmarks: 127.0.0.1, TCP-IP join, multicast off. */
final class BenchCluster implements AutoCloseable {

    final List<HazelcastInstance> members = new ArrayList<>();
    private final String name = "tollgate-bench-" + UUID.randomUUID();
    private final List<String> addresses = new ArrayList<>();
    private final List<HazelcastInstance> clients = new ArrayList<>();

    BenchCluster(int size, int basePort) {
        this(size, basePort, config -> { });
    }

    /**
     * @param customizer applied to each member's configuration after Tollgate's map configuration
     *                   and serialization factory are added (more map configurations, serializers)
     */
    BenchCluster(int size, int basePort, Consumer<Config> customizer) {
        for (int i = 0; i < size; i++) {
            addresses.add("127.0.0.1:" + (basePort + i));
        }
        for (int i = 0; i < size; i++) {
            Config config = new Config().setClusterName(name).setInstanceName(name + "-" + i)
                    .setProperty("hazelcast.phone.home.enabled", "false")
                    .setProperty("hazelcast.logging.type", "jdk")
                    .setProperty("hazelcast.socket.bind.any", "false")
                    // members of one JVM need no grace period to find each other
                    .setProperty("hazelcast.wait.seconds.before.join", "0")
                    .setProperty("hazelcast.max.wait.seconds.before.join", "0");
            // trials follow each other on the same ports: bind even while the last one's are in TIME_WAIT
            config.getNetworkConfig().setPort(basePort + i).setPortAutoIncrement(false).setReuseAddress(true)
                    .getInterfaces().setEnabled(true).addInterface("127.0.0.1");
            JoinConfig join = config.getNetworkConfig().getJoin();
            join.getMulticastConfig().setEnabled(false);
            join.getAutoDetectionConfig().setEnabled(false);
            join.getTcpIpConfig().setEnabled(true).setMembers(addresses);
            config.addMapConfig(BucketMapConfig.create("*", 1_000_000, 1));
            TollgateSerialization.register(config.getSerializationConfig());
            customizer.accept(config);
            members.add(Hazelcast.newHazelcastInstance(config));
        }
        members.get(0).getMap("partition-assignment").put("x", "x"); // partitions are assigned on first use
        while (!members.get(0).getPartitionService().isClusterSafe()) {
            Thread.onSpinWait();
        }
    }

    /**
     * @param customizer applied to the client's configuration (serializers)
     * @return a new client of this cluster (smart routing: it sends each call to the key's owner)
     */
    HazelcastInstance client(Consumer<ClientConfig> customizer) {
        ClientConfig config = new ClientConfig().setClusterName(name).setInstanceName(name + "-client-" + clients.size());
        config.setProperty("hazelcast.logging.type", "jdk");
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.getNetworkConfig().setAddresses(addresses);
        TollgateSerialization.register(config.getSerializationConfig());
        customizer.accept(config);
        HazelcastInstance client = HazelcastClient.newHazelcastClient(config);
        clients.add(client);
        return client;
    }

    /** @return a key of map partitions that {@code owner} owns */
    String keyOwnedBy(HazelcastInstance owner, String prefix) {
        return keyOwnedBy(owner, i -> prefix + i);
    }

    /** @return the first of {@code keyOf(0), keyOf(1), ...} whose partition {@code owner} owns */
    static String keyOwnedBy(HazelcastInstance owner, IntFunction<String> keyOf) {
        for (int i = 0; ; i++) {
            String key = keyOf.apply(i);
            if (owner.getPartitionService().getPartition(key).getOwner().localMember()) {
                return key;
            }
        }
    }

    @Override
    public void close() {
        clients.forEach(HazelcastInstance::shutdown);
        members.forEach(m -> m.getLifecycleService().terminate());
    }
}
