package io.tollgate.internal.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryEvictedListener;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.testing.Fuzz;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.SharedCluster;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A flood of distinct keys against the Hazelcast store, with Tollgate's map settings
 * ({@link BucketMapConfig}: a bound per member, least recently used evicted). The clock stands
 * still, so nothing refills and nothing expires: only the bound removes buckets.
 *
 * <p>What Hazelcast guarantees, and this test holds it to: the bound is divided over the partitions,
 * each holding at most {@code floor(bound x members / partitions)} entries, so a member holds at most
 * its partitions times that (1001 for a bound of 1000 on the member with 91 of 271 partitions), and a
 * new key evicts another of its partition. The eviction is least recently used among a sample of the
 * partition, by access times of one-second resolution: a flood that refills a partition within a
 * second leaves its entries all equally recent, and an active client's bucket can go as well as a
 * flood key. What an eviction costs is then exactly that the bucket restarts full, never more: every
 * answer to the active clients below is either their exact count or a full bucket.
 */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
class HazelcastKeyFloodTest {

    private static final int BOUND = 1_000;
    private static final int FLOOD_KEYS = 30 * BOUND; // ten times what three members may hold
    private static final int IN_FLIGHT = 256;
    private static final int ACTIVE_CLIENTS = 10;
    private static final int ACTIVE_EVERY = 20;
    private static final long ACTIVE_BURST = 50;
    private static final int PARTITIONS = 271;

    private final HazelcastTestCluster cluster;
    private String mapName;
    private final List<HazelcastBucketStore> stores = new ArrayList<>();

    HazelcastKeyFloodTest(HazelcastTestCluster cluster) {
        this.cluster = cluster;
        cluster.clock().set(2_400_000_000L * 1_000_000);
    }

    @AfterEach
    void dropTheMap() {
        stores.forEach(HazelcastBucketStore::close); // the shared cluster's members stay: so would the stores' negotiations
        if (mapName != null) {
            cluster.member(0).getMap(mapName).destroy();
        }
    }

    @Test
    void aFloodOfNewKeysStaysWithinThePerMemberBoundAndAnEvictedBucketOnlyRestartsFull() throws Exception {
        Random r = Fuzz.random("hazelcast-flood");
        mapName = "tollgate-flood-" + UUID.randomUUID();
        HazelcastStores.addMapConfig(cluster.member(0), BucketMapConfig.create(mapName, BOUND, 1));
        IMap<String, long[]> map = cluster.member(0).getMap(mapName);
        Set<String> evicted = ConcurrentHashMap.newKeySet();
        AtomicLong evictions = new AtomicLong();
        map.addEntryListener((EntryEvictedListener<String, long[]>) event -> {
            evictions.incrementAndGet();
            evicted.add(event.getKey());
        }, false);
        for (HazelcastInstance member : cluster.members()) {
            stores.add(new HazelcastBucketStore(member, mapName, true));
        }
        TokenBucket flood = TokenBucket.of(Limit.of(5, 1, Duration.ofHours(1)));
        TokenBucket active = TokenBucket.of(Limit.of(ACTIVE_BURST, 1, Duration.ofHours(1)));
        String[] activeKeys = new String[ACTIVE_CLIENTS];
        for (int c = 0; c < ACTIVE_CLIENTS; c++) {
            activeKeys[c] = BucketKeys.of("api", "client-" + c + "-" + r.nextInt());
        }
        long[] allowed = new long[ACTIVE_CLIENTS];
        long[] requests = new long[ACTIVE_CLIENTS];
        long[] resets = new long[ACTIVE_CLIENTS];
        long[] granted = new long[ACTIVE_CLIENTS];
        assertThat(cluster.member(0).getPartitionService().getPartitions()).hasSize(PARTITIONS);
        long maxOwned = 0;
        long maxBackups = 0;
        ArrayDeque<CompletableFuture<Outcome>> pending = new ArrayDeque<>();
        long started = System.nanoTime();
        for (int i = 0; i < FLOOD_KEYS; i++) {
            if (pending.size() >= IN_FLIGHT) {
                pending.poll().get(30, TimeUnit.SECONDS);
            }
            String key = BucketKeys.of("api", "flood-" + Long.toHexString(r.nextLong()));
            pending.add(stores.get(i % stores.size()).acquire(key, flood, 1).toCompletableFuture());
            if (i % ACTIVE_EVERY == 0) {
                int c = (i / ACTIVE_EVERY) % ACTIVE_CLIENTS;
                Outcome outcome = stores.get(c % stores.size()).acquire(activeKeys[c], active, 1).toCompletableFuture()
                        .get(30, TimeUnit.SECONDS);
                requests[c]++;
                long expected = Math.max(0, ACTIVE_BURST - allowed[c] - 1);
                if (outcome.allowed()) {
                    if (outcome.remaining() != expected) {
                        // evicted: the bucket restarted full, and nothing else
                        assertThat(outcome.remaining()).as("client %d", c).isEqualTo(ACTIVE_BURST - 1);
                        resets[c]++;
                        allowed[c] = 0;
                    }
                    allowed[c]++;
                    granted[c]++;
                } else {
                    assertThat(allowed[c]).as("client %d is denied only once its burst is gone", c).isEqualTo(ACTIVE_BURST);
                }
            }
            if (i % 1_000 == 0) {
                for (HazelcastInstance member : cluster.members()) {
                    var stats = member.getMap(mapName).getLocalMapStats();
                    maxOwned = Math.max(maxOwned, stats.getOwnedEntryCount());
                    maxBackups = Math.max(maxBackups, stats.getBackupEntryCount());
                }
            }
        }
        while (!pending.isEmpty()) {
            pending.poll().get(30, TimeUnit.SECONDS);
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        List<Long> owned = new ArrayList<>();
        List<Long> backups = new ArrayList<>();
        List<Integer> partitions = new ArrayList<>();
        for (HazelcastInstance member : cluster.members()) {
            var stats = member.getMap(mapName).getLocalMapStats();
            owned.add(stats.getOwnedEntryCount());
            backups.add(stats.getBackupEntryCount());
            maxOwned = Math.max(maxOwned, stats.getOwnedEntryCount());
            maxBackups = Math.max(maxBackups, stats.getBackupEntryCount());
            partitions.add((int) member.getPartitionService().getPartitions().stream()
                    .filter(p -> p.getOwner() != null && p.getOwner().localMember()).count());
        }
        long activeEvicted = 0;
        for (String key : activeKeys) {
            activeEvicted += evicted.contains(key) ? 1 : 0;
        }
        long totalResets = 0;
        long beyondBurst = 0;
        for (int c = 0; c < ACTIVE_CLIENTS; c++) {
            totalResets += resets[c];
            beyondBurst += Math.max(0, granted[c] - ACTIVE_BURST);
            assertThat(granted[c]).as("client %d: a burst, and one more per restart at most", c)
                    .isLessThanOrEqualTo(ACTIVE_BURST * (1 + resets[c]));
        }
        System.out.printf("hazelcast flood: %d new keys against a bound of %d per member (%d members, %d partitions): "
                + "buckets owned %s, backups %s at the end, at most %d owned and %d backups seen on one member during the flood; "
                + "partitions owned %s; %d evictions; %d active clients, one request per %d new keys, %d requests each: "
                + "%d of them evicted at least once, %d restarts from a full bucket in all, %d tokens granted beyond their burst; %d ms%n",
                FLOOD_KEYS, BOUND, cluster.members().size(), PARTITIONS, owned, backups, maxOwned, maxBackups, partitions,
                evictions.get(), ACTIVE_CLIENTS, ACTIVE_EVERY * ACTIVE_CLIENTS, requests[0], activeEvicted, totalResets, beyondBurst, millis);
        int perPartition = (int) Math.max(1, Math.floor((double) BOUND * cluster.members().size() / PARTITIONS));
        for (int m = 0; m < owned.size(); m++) {
            assertThat(owned.get(m)).as("buckets owned by member %d, with %d partitions", m, partitions.get(m))
                    .isLessThanOrEqualTo((long) partitions.get(m) * perPartition);
        }
        assertThat(owned.stream().mapToLong(Long::longValue).sum()).isLessThanOrEqualTo((long) PARTITIONS * perPartition);
        assertThat(backups.stream().mapToLong(Long::longValue).sum()).isLessThanOrEqualTo((long) PARTITIONS * perPartition);
        // while the flood ran, at most one more per partition (the new key, before its partition evicts)
        int mostPartitions = partitions.stream().mapToInt(Integer::intValue).max().orElseThrow();
        assertThat(maxOwned).isLessThanOrEqualTo((long) mostPartitions * (perPartition + 1));
        assertThat(evictions.get()).isGreaterThanOrEqualTo(FLOOD_KEYS - (long) PARTITIONS * perPartition);
    }
}
