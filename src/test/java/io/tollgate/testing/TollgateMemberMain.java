package io.tollgate.testing;

import com.hazelcast.config.Config;
import com.hazelcast.config.PartitionGroupConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.spi.partitiongroup.PartitionGroupMetaData;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.internal.hazelcast.BucketMapConfig;
import io.tollgate.internal.hazelcast.HazelcastBucketStore;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Hazelcast member in a JVM of its own that runs Tollgate's store and decides on commands from
 * standard input, for tests that mix Tollgate versions: it uses only what every Tollgate version
 * offers, so it runs against the current classes or an older Tollgate jar alike.
 *
 * <p>Arguments: cluster name, index, port, the members' addresses (comma-separated),
 * {@code now} or {@code later} (join at once, or on the command {@code join}), and its partition
 * group (see {@link #config}). It prints
 * {@value #READY} and its UUID once it has joined. Commands, one per line:
 * <ul>
 *   <li>{@code decide <id> <key> <burst> <cost>...}: one decision (one cost) or one batch (several)
 *       on a bucket of {@code burst} tokens refilled one per hour; prints {@code result <id>} and per
 *       cost the tokens left, {@code -1} if denied, or {@code failed:<exception>};</li>
 *   <li>{@code version <id>}: prints {@code version <id> <n>}, the wire version the store sends
 *       ({@code -1} for a Tollgate without versions);</li>
 *   <li>{@code shutdown}: leaves the cluster gracefully and exits.</li>
 * </ul>
 * When standard input closes (the test JVM is gone) it terminates.
 */
public final class TollgateMemberMain {

    static final String READY = "tollgate-member-ready";
    static final String RESULT = "result";
    static final String VERSION = "version";

    private TollgateMemberMain() {
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        if ("later".equals(args[4])) {
            String line;
            while ((line = in.readLine()) != null && !line.trim().equals("join")) {
                // waiting to be told to join
            }
            if (line == null) {
                System.exit(1);
            }
        }
        List<String> addresses = Arrays.asList(args[3].split(","));
        Config config = config(args[0], Integer.parseInt(args[1]), Integer.parseInt(args[2]), addresses, args[5]);
        HazelcastInstance member = Hazelcast.newHazelcastInstance(config);
        HazelcastBucketStore store = new HazelcastBucketStore(member, BucketMapConfig.DEFAULT_MAP_NAME, true, Duration.ofSeconds(30));
        System.out.println(READY + " " + member.getCluster().getLocalMember().getUuid());
        System.out.flush();
        String line;
        while ((line = in.readLine()) != null) {
            String[] words = line.trim().split(" ");
            if (words[0].equals("shutdown")) {
                member.shutdown();
                System.exit(0);
            } else if (words[0].equals("decide")) {
                System.out.println(RESULT + " " + words[1] + decide(store, words));
            } else if (words[0].equals("version")) {
                System.out.println(VERSION + " " + words[1] + " " + wireVersion(store));
            }
            System.out.flush();
        }
        member.getLifecycleService().terminate();
        System.exit(1);
    }

    /**
     * A member of a mixed-version test cluster: {@link HazelcastTestCluster#memberConfig}, with heartbeats every
     * second (a silent member is removed after 5 s) and in partition group {@code zone}: Hazelcast keeps a
     * partition's backup in another group than its owner, so a test decides which members back up which.
     */
    public static Config config(String cluster, int index, int port, List<String> addresses, String zone) {
        Config config = HazelcastTestCluster.memberConfig(cluster, index, port, addresses, true);
        config.setProperty("hazelcast.heartbeat.interval.seconds", "1");
        config.setProperty("hazelcast.max.no.heartbeat.seconds", "5");
        config.getPartitionGroupConfig().setEnabled(true).setGroupType(PartitionGroupConfig.MemberGroupType.ZONE_AWARE);
        config.getMemberAttributeConfig().setAttribute(PartitionGroupMetaData.PARTITION_GROUP_ZONE, zone);
        return config;
    }

    private static String decide(HazelcastBucketStore store, String[] words) {
        String key = words[2];
        TokenBucket bucket = TokenBucket.of(Limit.of(Long.parseLong(words[3]), 1, Duration.ofHours(1)));
        long[] costs = new long[words.length - 4];
        for (int i = 0; i < costs.length; i++) {
            costs[i] = Long.parseLong(words[4 + i]);
        }
        StringBuilder result = new StringBuilder();
        try {
            Outcome[] outcomes = costs.length == 1
                    ? new Outcome[] {store.acquire(key, bucket, costs[0]).toCompletableFuture().get(60, TimeUnit.SECONDS)}
                    : Batches.acquireAll(store, key, bucket, costs).toCompletableFuture().get(60, TimeUnit.SECONDS);
            for (Outcome outcome : outcomes) {
                result.append(' ').append(outcome.allowed() ? outcome.remaining() : -1);
            }
        } catch (Exception e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            String reason = ("failed:" + cause.getClass().getSimpleName() + ":" + cause.getMessage()).replace(' ', '_');
            for (int i = 0; i < costs.length; i++) {
                result.append(' ').append(reason);
            }
        }
        return result.toString();
    }

    private static int wireVersion(HazelcastBucketStore store) {
        try {
            Method version = HazelcastBucketStore.class.getDeclaredMethod("wireVersion");
            version.setAccessible(true);
            return (Integer) version.invoke(store);
        } catch (ReflectiveOperationException e) {
            return -1;
        }
    }
}
