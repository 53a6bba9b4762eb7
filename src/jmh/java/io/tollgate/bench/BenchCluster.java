package io.tollgate.bench;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.tollgate.hazelcast.TollgateSerialization;
import io.tollgate.internal.hazelcast.BucketMapConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * Hazelcast members in this JVM for benchmarks: 127.0.0.1, TCP-IP join, multicast off.
 *
 * <p>With the system property {@value #DELAY_PROPERTY} (microseconds, each way) above 0, the members stand as if on
 * hosts of a network: each advertises a {@link DelayRelay} in front of its port as its public address, so every
 * packet between members, and between a client and a member, waits that long.
 */
final class BenchCluster implements AutoCloseable {

    /** The delay each way between members, and between a client and a member, in microseconds (0: loopback). */
    static final String DELAY_PROPERTY = "tollgate.bench.delay.micros";
    /** A member's relay listens this far above the member's own port. */
    private static final int RELAY_PORT_OFFSET = 100;

    final List<HazelcastInstance> members = new ArrayList<>();
    private final String name = "tollgate-bench-" + UUID.randomUUID();
    private final List<String> addresses = new ArrayList<>();
    private final List<HazelcastInstance> clients = new ArrayList<>();
    private final List<DelayRelay> relays = new ArrayList<>();

    BenchCluster(int size, int basePort) {
        this(size, basePort, config -> { });
    }

    /**
     * @param customizer applied to each member's configuration after Tollgate's map configuration
     *                   and serialization factory are added (more map configurations, serializers)
     */
    BenchCluster(int size, int basePort, Consumer<Config> customizer) {
        long delayMicros = Long.getLong(DELAY_PROPERTY, 0);
        for (int i = 0; i < size; i++) {
            int advertised = basePort + i;
            if (delayMicros > 0) {
                advertised += RELAY_PORT_OFFSET;
                relays.add(openRelay(advertised, basePort + i, delayMicros));
            }
            addresses.add("127.0.0.1:" + advertised);
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
                    .setPublicAddress(addresses.get(i)) // the relay's port, when there is one
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

    private static DelayRelay openRelay(int port, int memberPort, long delayMicros) {
        try {
            return new DelayRelay(port, memberPort, TimeUnit.MICROSECONDS.toNanos(delayMicros));
        } catch (IOException e) {
            throw new UncheckedIOException("no relay on port " + port, e);
        }
    }

    /** @return how long packets waited in the relays since the last {@link #resetRelays()}; empty on loopback */
    Histogram relayed() {
        Histogram all = new Histogram();
        relays.forEach(relay -> all.add(relay.waited()));
        return all;
    }

    /** Forgets what packets waited in the relays so far. */
    void resetRelays() {
        relays.forEach(DelayRelay::resetWaits);
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
        for (DelayRelay relay : relays) {
            try {
                relay.close();
            } catch (IOException e) {
                // closing
            }
        }
    }
}
