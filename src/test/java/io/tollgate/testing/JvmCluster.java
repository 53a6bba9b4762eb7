package io.tollgate.testing;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.instance.impl.HazelcastInstanceImpl;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A Hazelcast cluster of this JVM's member (the one a test decides from, like an application with
 * Tollgate's embedded member) and members in JVMs of their own ({@link MemberProcess}), all on
 * 127.0.0.1. Members can be added later, up to the number of spare addresses. Close it to end them all.
 * {@link #startJvms} starts one with no member in this JVM, each JVM with the options given.
 */
public final class JvmCluster implements AutoCloseable {

    /**
     * Polls, 100 ms apart, that must find the cluster settled with the same partition table: a rebalancing
     * can pause between two of its migrations while the table already looks settled.
     */
    private static final int STABLE_POLLS = 10;

    private final String name = "tollgate-fault-" + UUID.randomUUID();
    private final List<String> addresses;
    private final List<MemberProcess> processes = new ArrayList<>();
    private final List<UUID> processIds = new ArrayList<>();
    private final List<String> jvmOptions;
    /** The address of the first member JVM: 1, after this JVM's member; 0 without it. */
    private final int firstJvmAddress;
    private HazelcastInstance local;

    private JvmCluster(int capacity) {
        this(capacity, List.of(), 1);
    }

    private JvmCluster(int capacity, List<String> jvmOptions, int firstJvmAddress) {
        this.addresses = HazelcastTestCluster.freePorts(capacity).stream().map(p -> "127.0.0.1:" + p).collect(Collectors.toList());
        this.jvmOptions = jvmOptions;
        this.firstJvmAddress = firstJvmAddress;
    }

    /** Starts this JVM's member and {@code jvms} others; room for {@code spare} more. */
    public static JvmCluster start(int jvms, int spare) throws Exception {
        JvmCluster cluster = new JvmCluster(1 + jvms + spare);
        try {
            Config config = HazelcastTestCluster.memberConfig(cluster.name, 0, cluster.port(0), cluster.addresses, true);
            MemberProcess.tuneFailureDetection(config);
            cluster.local = Hazelcast.newHazelcastInstance(config); // first, so this JVM's member is the master
            List<MemberProcess> started = new ArrayList<>();
            for (int i = 0; i < jvms; i++) {
                started.add(cluster.launch());
            }
            for (MemberProcess process : started) {
                cluster.processIds.add(process.awaitReady());
            }
            cluster.awaitSize(1 + jvms);
            return cluster;
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
    }

    /**
     * Starts {@code jvms} member JVMs, with {@code jvmOptions} each, and no member in this JVM (the test
     * talks to them with {@link MemberProcess#ask}); room for {@code spare} more.
     */
    public static JvmCluster startJvms(int jvms, int spare, List<String> jvmOptions) throws Exception {
        JvmCluster cluster = new JvmCluster(jvms + spare, jvmOptions, 0);
        try {
            List<MemberProcess> started = new ArrayList<>();
            for (int i = 0; i < jvms; i++) {
                started.add(cluster.launch());
            }
            for (MemberProcess process : started) {
                cluster.processIds.add(process.awaitReady());
            }
            cluster.awaitSize(jvms);
            return cluster;
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
    }

    private int port(int index) {
        return Integer.parseInt(addresses.get(index).substring(addresses.get(index).indexOf(':') + 1));
    }

    private MemberProcess launch() throws Exception {
        int index = processes.size() + firstJvmAddress;
        if (index >= addresses.size()) {
            throw new IllegalStateException("no spare address left for another member");
        }
        MemberProcess process = MemberProcess.start(name, index, port(index), addresses, jvmOptions);
        processes.add(process);
        return process;
    }

    /** Starts one more member JVM and waits until it has joined (not for its migrations). */
    public MemberProcess addMember() throws Exception {
        MemberProcess process = launch();
        processIds.add(process.awaitReady());
        return process;
    }

    /** @return the member JVMs started so far, in order (those stopped since too) */
    public List<MemberProcess> processes() {
        return processes;
    }

    /** @return this JVM's member, or {@code null} after {@link #startJvms} */
    public HazelcastInstance local() {
        return local;
    }

    public MemberProcess process(int index) {
        return processes.get(index);
    }

    /** @return the member JVM that owns {@code key}'s partition, or {@code null} if this JVM's member does */
    public MemberProcess ownerOf(Object key) {
        UUID owner = local.getPartitionService().getPartition(key).getOwner().getUuid();
        int index = processIds.indexOf(owner);
        return index < 0 ? null : processes.get(index);
    }

    /**
     * @return the member JVM that holds {@code key}'s backup, or {@code null} if this JVM's member
     *         does (read from Hazelcast's internal partition table: tests only)
     */
    public MemberProcess backupOf(Object key) {
        int partition = local.getPartitionService().getPartition(key).getPartitionId();
        HazelcastInstanceImpl impl = ((HazelcastInstanceProxy) local).getOriginal();
        UUID backup = impl.node.getPartitionService().getPartition(partition).getReplica(1).uuid();
        int index = processIds.indexOf(backup);
        return index < 0 ? null : processes.get(index);
    }

    /**
     * Waits (at most 120 s) until the cluster has {@code size} members and its partitions are spread
     * over them with their backups ({@link HazelcastTestCluster#settled}), as this JVM's member sees it
     * or, without one, as every running member JVM does.
     */
    public void awaitSize(int size) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        int stable = 0;
        long stamp = 0;
        while (stable < STABLE_POLLS) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the cluster did not settle at " + size + " members within 120 s"
                        + (local == null ? "" : "; it has " + local.getCluster().getMembers().size()));
            }
            TimeUnit.MILLISECONDS.sleep(100);
            if (!settled(size)) {
                stable = 0;
                continue;
            }
            long now = local == null ? 0 : HazelcastTestCluster.partitionStamp(local);
            stable = stable > 0 && now == stamp ? stable + 1 : 1;
            stamp = now;
        }
    }

    private boolean settled(int size) {
        if (local != null) {
            return HazelcastTestCluster.settled(local, size);
        }
        try {
            for (MemberProcess process : processes) {
                if (process.isAlive() && !Boolean.parseBoolean(process.ask("settled " + size))) {
                    return false;
                }
            }
            return true;
        } catch (Exception e) {
            throw new IllegalStateException("a member could not tell whether the cluster has settled", e);
        }
    }

    @Override
    public void close() throws InterruptedException {
        for (MemberProcess process : processes) {
            process.close();
        }
        if (local != null) {
            local.getLifecycleService().terminate();
        }
    }
}
