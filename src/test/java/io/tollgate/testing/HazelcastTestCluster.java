package io.tollgate.testing;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.cluster.Member;
import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.instance.impl.HazelcastInstanceImpl;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import com.hazelcast.internal.partition.impl.InternalPartitionServiceImpl;
import com.hazelcast.nio.serialization.DataSerializableFactory;
import com.hazelcast.partition.Partition;
import io.tollgate.hazelcast.TollgateSerialization;
import io.tollgate.internal.core.Clock;
import io.tollgate.internal.hazelcast.BucketMapConfig;
import io.tollgate.internal.hazelcast.JavaSerializationFilter;
import io.tollgate.internal.hazelcast.MemberClock;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * Real Hazelcast members in this JVM, on 127.0.0.1 with TCP-IP join and multicast off, sharing
 * one {@link TestClock}; plus an optional client. Like the instances Tollgate configures, they
 * accept only what {@link JavaSerializationFilter} lets through. Close it to shut everything down.
 */
public final class HazelcastTestCluster implements AutoCloseable {

    private final String name = "tollgate-test-" + UUID.randomUUID();
    private final TestClock clock = TestClock.atRealTime();
    private final List<Integer> ports;
    private final List<HazelcastInstance> members = new ArrayList<>();
    /** Per member, how far its clock is ahead of (or behind) the shared one, in microseconds. */
    private final List<AtomicLong> offsets = new ArrayList<>();
    private HazelcastInstance client;

    private final boolean tollgateFactory;

    private HazelcastTestCluster(int size, boolean tollgateFactory) {
        this.ports = freePorts(size);
        this.tollgateFactory = tollgateFactory;
        for (int i = 0; i < size; i++) {
            offsets.add(new AtomicLong());
        }
    }

    /** Starts {@code size} members and waits until they form one cluster. */
    public static HazelcastTestCluster start(int size) {
        return start(size, true);
    }

    /**
     * @param tollgateFactory whether the members know Tollgate's serialization factory from the start
     *                        (a server's own instance, like Payara's, does not)
     */
    public static HazelcastTestCluster start(int size, boolean tollgateFactory) {
        HazelcastTestCluster cluster = new HazelcastTestCluster(size, tollgateFactory);
        cluster.startMembers();
        return cluster;
    }

    /**
     * Starts the members again, on the same addresses under the same cluster name, after
     * {@link #stopMembers()}: like a restart of the whole cluster, with every bucket gone.
     */
    public synchronized void startMembers() {
        try {
            for (int i = 0; i < ports.size(); i++) {
                members.add(Hazelcast.newHazelcastInstance(memberConfig(i)));
            }
            awaitSize(ports.size());
        } catch (RuntimeException | Error e) {
            close();
            throw e;
        }
    }

    /** Shifts member {@code index}'s clock by {@code by} (negative: backwards) from now on. */
    public void stepClock(int index, Duration by) {
        offsets.get(index).addAndGet(by.toNanos() / 1_000);
    }

    /**
     * Waits (at most 60 s) until every running member sees {@code size} members, every partition has
     * an owner and its backups, and no migration is pending: from then on a backup write is not lost
     * to a partition table still on its way (Hazelcast repairs such a backup only at its next
     * anti-entropy round).
     */
    public void awaitSize(int size) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            boolean formed = true;
            for (HazelcastInstance member : members) {
                if (member.getLifecycleService().isRunning() && !settled(member, size)) {
                    formed = false;
                }
            }
            if (formed) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the cluster did not reach " + size + " members within 60 s");
            }
            try {
                TimeUnit.MILLISECONDS.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    /**
     * @return whether {@code member} sees {@code size} members, every partition with an owner and its
     *         backups, each member owning at least half its share (a member that just joined owns none
     *         until the rebalancing is done, and the cluster can look safe before it has begun), and, if
     *         it is the master, no migration planned or under way (the cluster also looks safe between
     *         two of them, while a partition's owner is still to change)
     */
    public static boolean settled(HazelcastInstance member, int size) {
        if (member.getCluster().getMembers().size() != size) {
            return false;
        }
        Map<UUID, Integer> owned = new HashMap<>();
        member.getCluster().getMembers().forEach(m -> owned.put(m.getUuid(), 0));
        for (Partition partition : member.getPartitionService().getPartitions()) { // assigns them, if nothing did yet
            Member owner = partition.getOwner();
            if (owner == null || !owned.containsKey(owner.getUuid())) {
                return false;
            }
            owned.merge(owner.getUuid(), 1, Integer::sum);
        }
        int fair = member.getPartitionService().getPartitions().size() / size;
        return owned.values().stream().allMatch(n -> n >= fair / 2) && member.getPartitionService().isClusterSafe()
                && !migrating(member);
    }

    /** @return the stamp of {@code member}'s partition table, which changes with every change of it (Hazelcast's internals) */
    public static long partitionStamp(HazelcastInstance member) {
        return partitions(member).getPartitionStateStamp();
    }

    private static InternalPartitionServiceImpl partitions(HazelcastInstance member) {
        HazelcastInstanceImpl impl = member instanceof HazelcastInstanceProxy
                ? ((HazelcastInstanceProxy) member).getOriginal() : (HazelcastInstanceImpl) member;
        return (InternalPartitionServiceImpl) impl.node.getPartitionService();
    }

    /** @return whether {@code member} has migrations queued or running (read from Hazelcast's internals: tests only) */
    private static boolean migrating(HazelcastInstance member) {
        InternalPartitionServiceImpl partitions = partitions(member);
        return partitions.getMigrationQueueSize() > 0 || partitions.hasOnGoingMigrationLocal();
    }

    private Config memberConfig(int index) {
        AtomicLong offset = offsets.get(index);
        Clock memberClock = () -> clock.nowMicros() + offset.get();
        Config config = memberConfig(name, index, ports.get(index), addresses(), tollgateFactory);
        config.getUserContext().put(MemberClock.USER_CONTEXT_KEY, memberClock);
        return config;
    }

    /**
     * A member of a test cluster: on 127.0.0.1 at {@code port}, TCP-IP join to {@code addresses},
     * multicast off, with Tollgate's bucket map (one backup).
     */
    public static Config memberConfig(String cluster, int index, int port, List<String> addresses, boolean tollgateFactory) {
        Config config = new Config()
                .setClusterName(cluster)
                .setInstanceName(cluster + "-member-" + index)
                .setProperty("hazelcast.phone.home.enabled", "false")
                .setProperty("hazelcast.logging.type", "jdk")
                .setProperty("hazelcast.socket.bind.any", "false")
                .setProperty("hazelcast.internal.map.expiration.task.period.seconds", "1")
                .setProperty("hazelcast.graceful.shutdown.max.wait", "20");
        NetworkConfig network = config.getNetworkConfig();
        network.setPort(port).setPortAutoIncrement(false);
        network.getInterfaces().setEnabled(true).addInterface("127.0.0.1");
        JoinConfig join = network.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(true).setMembers(addresses);
        config.addMapConfig(BucketMapConfig.create(BucketMapConfig.DEFAULT_MAP_NAME, 100_000, 1));
        if (hasSerializationFilter()) {
            JavaSerializationFilter.applyTo(config.getSerializationConfig()); // as on the instances Tollgate configures
        }
        if (tollgateFactory) {
            config.getSerializationConfig().addDataSerializableFactory(TollgateSerialization.FACTORY_ID, tollgateFactory());
        }
        return config;
    }

    /**
     * @return the serialization factory of the Tollgate on the class path: by its public name, or by the name the
     *         wire-v0 jar (Tollgate 0.1) gives it
     */
    private static DataSerializableFactory tollgateFactory() {
        ClassLoader loader = HazelcastTestCluster.class.getClassLoader();
        for (String name : List.of("io.tollgate.hazelcast.TollgateSerialization", "io.tollgate.internal.hazelcast.TollgateSerialization")) {
            try {
                return (DataSerializableFactory) Class.forName(name, true, loader).getConstructor().newInstance();
            } catch (ClassNotFoundException e) {
                // an older Tollgate: the next name
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot create " + name, e);
            }
        }
        throw new IllegalStateException("no Tollgate serialization factory on the class path");
    }

    /** @return whether the Tollgate on the class path has its serialization filter (the wire-v0 jar predates it) */
    private static boolean hasSerializationFilter() {
        try {
            Class.forName("io.tollgate.internal.hazelcast.JavaSerializationFilter", false, HazelcastTestCluster.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    private List<String> addresses() {
        return ports.stream().map(p -> "127.0.0.1:" + p).collect(Collectors.toList());
    }

    /** @return a client connected to this cluster, started on first use */
    public synchronized HazelcastInstance client() {
        if (client == null) {
            ClientConfig config = new ClientConfig().setClusterName(name).setInstanceName(name + "-client");
            config.setProperty("hazelcast.logging.type", "jdk");
            config.getNetworkConfig().setAddresses(addresses());
            config.getConnectionStrategyConfig().getConnectionRetryConfig().setClusterConnectTimeoutMillis(30_000);
            JavaSerializationFilter.applyTo(config.getSerializationConfig());
            client = HazelcastClient.newHazelcastClient(config);
        }
        return client;
    }

    /** @return the cluster's name */
    public String name() {
        return name;
    }

    /** @return {@code 127.0.0.1:<port>} of member {@code index} */
    public String address(int index) {
        return addresses().get(index);
    }

    public List<HazelcastInstance> members() {
        return members;
    }

    public HazelcastInstance member(int index) {
        return members.get(index);
    }

    public TestClock clock() {
        return clock;
    }

    /** @return the member that owns {@code key}'s partition */
    public HazelcastInstance ownerOf(Object key) {
        var owner = members.get(0).getPartitionService().getPartition(key).getOwner();
        return members.stream().filter(m -> m.getLifecycleService().isRunning()
                && m.getCluster().getLocalMember().getUuid().equals(owner.getUuid())).findFirst().orElseThrow();
    }

    @Override
    public synchronized void close() {
        if (client != null) {
            client.shutdown();
            client = null;
        }
        stopMembers();
    }

    /** Terminates every member (the client, if any, is left trying to reconnect). */
    public synchronized void stopMembers() {
        for (HazelcastInstance member : members) {
            if (member.getLifecycleService().isRunning()) {
                member.getLifecycleService().terminate();
            }
        }
        members.clear();
    }

    /** Where test members listen: below Linux's ephemeral range (32768 on), so no outgoing connection takes the port. */
    private static final int FIRST_PORT = 20_000;
    private static final int LAST_PORT = 32_000;
    /** Ports handed out in this JVM: a member started later still finds its port its own. */
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    /**
     * @return {@code count} ports free on 127.0.0.1 right now, none handed out before in this JVM, all below the
     *         ephemeral range: a port from {@code new ServerSocket(0)} can be taken by any outgoing connection of the
     *         machine between this probe and the member's bind
     */
    public static List<Integer> freePorts(int count) {
        List<Integer> ports = new ArrayList<>();
        int span = LAST_PORT - FIRST_PORT;
        int start = ThreadLocalRandom.current().nextInt(span);
        for (int i = 0; i < span && ports.size() < count; i++) {
            int port = FIRST_PORT + (start + i) % span;
            if (!HANDED_OUT.contains(port) && bindable(port) && HANDED_OUT.add(port)) {
                ports.add(port);
            }
        }
        if (ports.size() < count) {
            throw new IllegalStateException("no " + count + " free ports on 127.0.0.1 from " + FIRST_PORT + " to " + LAST_PORT);
        }
        return ports;
    }

    private static boolean bindable(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
