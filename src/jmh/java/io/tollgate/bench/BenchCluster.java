package io.tollgate.bench;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.tollgate.internal.hazelcast.BucketMapConfig;
import io.tollgate.internal.hazelcast.TollgateSerialization;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Hazelcast members in this JVM for benchmarks: 127.0.0.1, TCP-IP join, multicast off. */
final class BenchCluster implements AutoCloseable {

    final List<HazelcastInstance> members = new ArrayList<>();

    BenchCluster(int size, int basePort) {
        String name = "tollgate-bench-" + UUID.randomUUID();
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            addresses.add("127.0.0.1:" + (basePort + i));
        }
        for (int i = 0; i < size; i++) {
            Config config = new Config().setClusterName(name).setInstanceName(name + "-" + i)
                    .setProperty("hazelcast.phone.home.enabled", "false")
                    .setProperty("hazelcast.logging.type", "jdk")
                    .setProperty("hazelcast.socket.bind.any", "false");
            config.getNetworkConfig().setPort(basePort + i).setPortAutoIncrement(false)
                    .getInterfaces().setEnabled(true).addInterface("127.0.0.1");
            JoinConfig join = config.getNetworkConfig().getJoin();
            join.getMulticastConfig().setEnabled(false);
            join.getAutoDetectionConfig().setEnabled(false);
            join.getTcpIpConfig().setEnabled(true).setMembers(addresses);
            config.addMapConfig(BucketMapConfig.create("*", 1_000_000, 1));
            TollgateSerialization.register(config.getSerializationConfig());
            members.add(Hazelcast.newHazelcastInstance(config));
        }
        members.get(0).getMap("partition-assignment").put("x", "x"); // partitions are assigned on first use
        while (!members.get(0).getPartitionService().isClusterSafe()) {
            Thread.onSpinWait();
        }
    }

    /** @return a key of map partitions that {@code owner} owns */
    String keyOwnedBy(HazelcastInstance owner, String prefix) {
        for (int i = 0; ; i++) {
            String key = prefix + i;
            if (owner.getPartitionService().getPartition(key).getOwner().localMember()) {
                return key;
            }
        }
    }

    @Override
    public void close() {
        members.forEach(m -> m.getLifecycleService().terminate());
    }
}
