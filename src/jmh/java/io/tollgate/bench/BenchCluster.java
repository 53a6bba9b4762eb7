package io.tollgate.bench;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.cluster.Member;
import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.tollgate.hazelcast.TollgateSerialization;
import io.tollgate.internal.hazelcast.BucketMapConfig;
import io.tollgate.internal.hazelcast.HazelcastBucketStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * Hazelcast members for benchmarks: TCP-IP join, multicast off, every member running Tollgate (each opens a store, so
 * that it advertises the wire version it reads, as in an application).
 *
 * <p>By default every member runs in this JVM, on 127.0.0.1. With the system property {@value #HOSTS_PROPERTY} they
 * run on hosts: each member in a JVM of its own ({@link BenchMember}) in a network namespace of its own, this JVM in
 * the first one. With {@value #DELAY_PROPERTY} (microseconds, each way) above 0, the members stand as if on hosts of a
 * network with that latency: each advertises a {@link DelayRelay} in front of its port as its public address, so every
 * packet between members, and between a client and a member, waits that long.
 */
final class BenchCluster implements AutoCloseable {

    /** The delay each way between members, and between a client and a member, in microseconds (0: none). */
    static final String DELAY_PROPERTY = "tollgate.bench.delay.micros";
    /**
     * The hosts ({@code namespace@address,...}; the first is this JVM's): network namespaces joined by a bridge, made by
     * {@code bench-network.sh --hosts}. Unset: every member in this JVM, on 127.0.0.1.
     */
    static final String HOSTS_PROPERTY = "tollgate.bench.hosts";
    /** A member's relay listens this far above the member's own port. */
    private static final int RELAY_PORT_OFFSET = 100;
    private static final Duration SETTLE = Duration.ofSeconds(60);

    /** The members in this JVM. */
    final List<HazelcastInstance> members = new ArrayList<>();
    private final String name = "tollgate-bench-" + UUID.randomUUID();
    private final List<String> addresses = new ArrayList<>();
    private final List<MemberProcess> processes = new ArrayList<>();
    private final List<HazelcastBucketStore> advertisers = new ArrayList<>();
    private final List<HazelcastInstance> clients = new ArrayList<>();
    private final List<DelayRelay> relays = new ArrayList<>();
    private ThreadCpu cpu = new ThreadCpu();

    BenchCluster(int size, int basePort) {
        this(size, basePort, config -> { });
    }

    /** Member 0 in this JVM; see {@link #BenchCluster(int, int, Consumer, boolean)}. */
    BenchCluster(int size, int basePort, Consumer<Config> customizer) {
        this(size, basePort, customizer, true);
    }

    /**
     * @param customizer applied to each member's configuration in this JVM after Tollgate's map configuration and
     *                   serialization factory are added (more map configurations, serializers); a member on a host of its
     *                   own gets {@link Impl#configureMember}
     * @param memberHere on hosts: whether member 0 runs in this JVM (the caller is a member); if not, every member runs on
     *                   a host of its own, and this JVM's host has only clients. Without hosts, every member runs here.
     */
    BenchCluster(int size, int basePort, Consumer<Config> customizer, boolean memberHere) {
        long delayMicros = Long.getLong(DELAY_PROPERTY, 0);
        List<String[]> hosts = hosts();
        List<String[]> memberHosts = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            String[] host = hosts.isEmpty() ? new String[] {null, "127.0.0.1"} : hosts.get(memberHere ? i : i + 1);
            memberHosts.add(host);
            addresses.add(host[1] + ":" + (basePort + i + (delayMicros > 0 ? RELAY_PORT_OFFSET : 0)));
        }
        try {
            for (int i = 0; i < size; i++) {
                String[] host = memberHosts.get(i);
                if (hosts.isEmpty() || (memberHere && i == 0)) {
                    if (delayMicros > 0) {
                        relays.add(openRelay(host[1], basePort + i, delayMicros));
                    }
                    HazelcastInstance member = Hazelcast.newHazelcastInstance(memberConfig(name, i, host[1], basePort + i,
                            addresses, customizer));
                    members.add(member);
                    advertisers.add(advertise(member));
                } else {
                    processes.add(MemberProcess.start(host[0], name, i, host[1], basePort + i, delayMicros, addresses));
                }
            }
            if (members.isEmpty()) {
                processes.get(0).ask("settle " + size);
            } else {
                settle(members.get(0), size);
            }
        } catch (RuntimeException | Error e) {
            close();
            throw e;
        }
    }

    /** @return the hosts of {@value #HOSTS_PROPERTY}, each {namespace, address}; empty without */
    private static List<String[]> hosts() {
        String hosts = System.getProperty(HOSTS_PROPERTY, "").trim();
        List<String[]> parsed = new ArrayList<>();
        for (String host : hosts.isEmpty() ? new String[0] : hosts.split(",")) {
            String[] parts = host.split("@");
            if (parts.length != 2) {
                throw new IllegalArgumentException(HOSTS_PROPERTY + " lists namespace@address, not '" + host + "'");
            }
            parsed.add(parts);
        }
        return parsed;
    }

    /** @return the configuration of member {@code index} of cluster {@code name}, bound to {@code address:port} */
    static Config memberConfig(String name, int index, String address, int port, List<String> addresses,
            Consumer<Config> customizer) {
        Config config = new Config().setClusterName(name).setInstanceName(name + "-" + index)
                .setProperty("hazelcast.phone.home.enabled", "false")
                .setProperty("hazelcast.logging.type", "jdk")
                .setProperty("hazelcast.socket.bind.any", "false")
                // members that start one after another need no grace period to find each other
                .setProperty("hazelcast.wait.seconds.before.join", "0")
                .setProperty("hazelcast.max.wait.seconds.before.join", "0");
        // trials follow each other on the same ports: bind even while the last one's are in TIME_WAIT
        config.getNetworkConfig().setPort(port).setPortAutoIncrement(false).setReuseAddress(true)
                .setPublicAddress(addresses.get(index)) // the relay's port, when there is one
                .getInterfaces().setEnabled(true).addInterface(address);
        JoinConfig join = config.getNetworkConfig().getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(true).setMembers(addresses);
        config.addMapConfig(BucketMapConfig.create("*", 1_000_000, 1));
        TollgateSerialization.register(config.getSerializationConfig());
        customizer.accept(config);
        return config;
    }

    /** @return a Tollgate store on {@code member}, open so that the member advertises the wire version it reads */
    static HazelcastBucketStore advertise(HazelcastInstance member) {
        return new HazelcastBucketStore(member, Impl.TOLLGATE_MAP, true, Duration.ofSeconds(5));
    }

    /** Waits until {@code member}'s cluster has {@code size} members, owns every partition and backs it up. */
    static void settle(HazelcastInstance member, int size) {
        long deadline = System.nanoTime() + SETTLE.toNanos();
        member.getMap("partition-assignment").put("x", "x"); // partitions are assigned on first use
        while (member.getCluster().getMembers().size() < size || !member.getPartitionService().isClusterSafe()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the benchmark's cluster did not settle in " + SETTLE.toSeconds() + " s: "
                        + member.getCluster().getMembers());
            }
            sleep(10);
        }
    }

    static DelayRelay openRelay(String address, int memberPort, long delayMicros) {
        int port = memberPort + RELAY_PORT_OFFSET;
        try {
            return new DelayRelay(InetAddress.getByName(address), port, memberPort, TimeUnit.MICROSECONDS.toNanos(delayMicros));
        } catch (IOException e) {
            throw new UncheckedIOException("no relay on " + address + ":" + port, e);
        }
    }

    /** Waits until the members in this JVM send the wire version of today's Tollgate (every member advertised it). */
    void awaitWireVersion() {
        long deadline = System.nanoTime() + SETTLE.toNanos();
        for (HazelcastBucketStore store : advertisers) {
            while (!store.takesRefunds()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the benchmark's members did not agree on Tollgate's wire version in "
                            + SETTLE.toSeconds() + " s");
                }
                sleep(10);
            }
        }
    }

    /** Starts a measurement: forgets what packets waited in the relays and the CPU time spent so far. */
    void startMeasuring() {
        relays.forEach(DelayRelay::resetWaits);
        processes.forEach(process -> process.ask("reset"));
        cpu = new ThreadCpu();
    }

    /**
     * @return since {@link #startMeasuring()}: how long packets waited in the relays (empty without), and the CPU time
     *         of each JVM's groups of threads ({@code this JVM}, {@code member <i>} on hosts)
     */
    Measured measured() {
        Histogram relayed = new Histogram();
        relays.forEach(relay -> relayed.add(relay.waited()));
        Map<String, Map<String, Long>> cpuByJvm = new LinkedHashMap<>();
        cpuByJvm.put("this JVM", cpu.byGroup());
        for (MemberProcess process : processes) {
            String[] report = process.ask("report").split("\\|", 2);
            relayed.add(Histogram.decode(report[0]));
            cpuByJvm.put("member " + process.index(), ThreadCpu.decode(report[1]));
        }
        return new Measured(relayed, cpuByJvm);
    }

    /** What a measurement found: how long packets waited in the relays, CPU nanoseconds by JVM and group of threads. */
    record Measured(Histogram relayed, Map<String, Map<String, Long>> cpuByJvm) {
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

    /** @return member {@code index} as {@code view} (a member or a client of this cluster) sees it */
    Member member(HazelcastInstance view, int index) {
        long deadline = System.nanoTime() + SETTLE.toNanos();
        while (true) {
            for (Member member : view.getCluster().getMembers()) {
                String address = member.getAddress().getHost() + ":" + member.getAddress().getPort();
                if (address.equals(addresses.get(index))) {
                    return member;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no member at " + addresses.get(index) + " in " + view.getCluster().getMembers());
            }
            sleep(10);
        }
    }

    /** @return the first of {@code keyOf(0), keyOf(1), ...} whose partition {@code owner} (a member in this JVM) owns */
    static String keyOwnedBy(HazelcastInstance owner, IntFunction<String> keyOf) {
        return keyOwnedBy(owner, owner.getCluster().getLocalMember(), keyOf);
    }

    /** @return the first of {@code keyOf(0), keyOf(1), ...} whose partition {@code owner} owns, as {@code view} sees it */
    static String keyOwnedBy(HazelcastInstance view, Member owner, IntFunction<String> keyOf) {
        for (int i = 0; ; i++) {
            String key = keyOf.apply(i);
            if (owner.equals(ownerOf(view, key))) {
                return key;
            }
        }
    }

    /** @return the owner of {@code key}'s partition as {@code view} sees it, once it knows one (a client learns it late) */
    static Member ownerOf(HazelcastInstance view, String key) {
        long deadline = System.nanoTime() + SETTLE.toNanos();
        Member owner;
        while ((owner = view.getPartitionService().getPartition(key).getOwner()) == null) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no owner known for the partition of " + key);
            }
            sleep(10);
        }
        return owner;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public void close() {
        clients.forEach(HazelcastInstance::shutdown);
        advertisers.forEach(HazelcastBucketStore::close);
        members.forEach(m -> m.getLifecycleService().terminate());
        processes.forEach(MemberProcess::close);
        for (DelayRelay relay : relays) {
            try {
                relay.close();
            } catch (IOException e) {
                // closing
            }
        }
    }
}
