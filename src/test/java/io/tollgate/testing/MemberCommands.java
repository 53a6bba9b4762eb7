package io.tollgate.testing;

import com.hazelcast.core.HazelcastInstance;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.internal.hazelcast.BucketMapConfig;
import io.tollgate.internal.hazelcast.ClusterTimes;
import io.tollgate.internal.hazelcast.HazelcastBucketStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

/**
 * Commands a test sends a {@link MemberMain} JVM through {@link MemberProcess#ask}, each answered by
 * one reply line:
 * <ul>
 * <li>{@code master}: whether this member is the master ({@code true}/{@code false});</li>
 * <li>{@code settled <size>}: whether it sees {@code size} members and a settled partition table;</li>
 * <li>{@code clock <millis>}: steps this JVM's wall clock (Hazelcast's and the buckets', see
 *     {@link SteppableClock}) to {@code millis} ahead of the system clock;</li>
 * <li>{@code time}: {@code lead=<ms> cluster=<ms>}: how far the cluster time Tollgate's deadlines use is
 *     ahead of Hazelcast's here, and how far Hazelcast's is ahead of the system clock;</li>
 * <li>{@code load <prefix> <owners> <keys> <threads> <rate> <burst> <timeout ms>}: starts deciding,
 *     through Tollgate's store with deadlines, on {@code keys} buckets named {@code <prefix><n>} owned by
 *     each member of the comma-separated UUIDs {@code owners} (the same buckets on every member asked),
 *     one token a time, with {@code threads} threads;</li>
 * <li>{@code stop}: ends the load and replies its counts ({@link LoadCounts}).</li>
 * </ul>
 */
final class MemberCommands {

    static final String REPLY = "tollgate-reply";
    private static final long MAX_DECISIONS_PER_THREAD = 1_000_000;
    private static final long MAX_LOAD_NANOS = TimeUnit.SECONDS.toNanos(120);

    private final HazelcastInstance member;
    private Load load;

    MemberCommands(HazelcastInstance member) {
        this.member = member;
    }

    /** @return the reply to {@code line} */
    String run(String line) {
        String[] words = line.trim().split("\\s+");
        try {
            switch (words[0]) {
                case "master":
                    return String.valueOf(member.getCluster().getMembers().iterator().next().localMember());
                case "settled":
                    return String.valueOf(HazelcastTestCluster.settled(member, Integer.parseInt(words[1])));
                case "clock":
                    if (!SteppableClock.installed()) {
                        return "error: this member was not started with a steppable clock";
                    }
                    SteppableClock.set(Long.parseLong(words[1]));
                    return "ok";
                case "time":
                    return "lead=" + ClusterTimes.lead(member) + " cluster=" + (member.getCluster().getClusterTime() - System.currentTimeMillis());
                case "load":
                    if (load != null) {
                        return "error: a load is running";
                    }
                    load = new Load(member, words);
                    return "ok";
                case "stop":
                    if (load == null) {
                        return "error: no load is running";
                    }
                    String counts = load.stop();
                    load = null;
                    return counts;
                default:
                    return "error: unknown command " + words[0];
            }
        } catch (Exception e) {
            return "error: " + e;
        }
    }

    /** Threads deciding one token a time on a fixed set of buckets until stopped (or for at most 120 s). */
    private static final class Load {
        private final HazelcastBucketStore store;
        private final TokenBucket bucket;
        private final long timeoutMillis;
        private final List<String> keys = new ArrayList<>();
        private final AtomicLongArray allowed;
        private final AtomicLong denied = new AtomicLong();
        private final AtomicLong late = new AtomicLong();
        private final AtomicLong timeouts = new AtomicLong();
        private final AtomicLong errors = new AtomicLong();
        private final AtomicReference<String> firstError = new AtomicReference<>();
        private final List<Thread> threads = new ArrayList<>();
        private volatile boolean stop;

        Load(HazelcastInstance member, String[] words) {
            String prefix = words[1];
            List<UUID> owners = Arrays.stream(words[2].split(",")).map(UUID::fromString).collect(Collectors.toList());
            int perOwner = Integer.parseInt(words[3]);
            int threadCount = Integer.parseInt(words[4]);
            bucket = TokenBucket.of(Limit.of(Long.parseLong(words[6]), Long.parseLong(words[5]), Duration.ofSeconds(1)));
            timeoutMillis = Long.parseLong(words[7]);
            for (UUID owner : owners) {
                int found = 0;
                for (int i = 0; found < perOwner; i++) {
                    if (i == 100_000) {
                        throw new IllegalArgumentException("member " + owner + " owns no partition");
                    }
                    String key = BucketKeys.of("clock", prefix + i);
                    if (member.getPartitionService().getPartition(key).getOwner().getUuid().equals(owner)) {
                        keys.add(key);
                        found++;
                    }
                }
            }
            allowed = new AtomicLongArray(keys.size());
            store = new HazelcastBucketStore(member, BucketMapConfig.DEFAULT_MAP_NAME, true, Duration.ofMillis(timeoutMillis));
            for (int t = 0; t < threadCount; t++) {
                int first = t;
                Thread thread = new Thread(() -> decide(first), "tollgate-load-" + t);
                threads.add(thread);
                thread.start();
            }
        }

        private void decide(int first) {
            long end = System.nanoTime() + MAX_LOAD_NANOS;
            for (long n = 0; n < MAX_DECISIONS_PER_THREAD && !stop && System.nanoTime() < end; n++) {
                int k = (int) ((first + n) % keys.size());
                try {
                    Outcome outcome = store.acquire(keys.get(k), bucket, 1).toCompletableFuture().get(timeoutMillis, TimeUnit.MILLISECONDS);
                    if (outcome.allowed()) {
                        allowed.incrementAndGet(k);
                    } else {
                        denied.incrementAndGet();
                    }
                } catch (TimeoutException e) {
                    timeouts.incrementAndGet();
                } catch (ExecutionException e) {
                    if (String.valueOf(e.getCause().getMessage()).contains("after its deadline")) {
                        late.incrementAndGet();
                    } else {
                        errors.incrementAndGet();
                        firstError.compareAndSet(null, String.valueOf(e.getCause()).replace(' ', '_'));
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } catch (RuntimeException e) {
                    errors.incrementAndGet();
                    firstError.compareAndSet(null, String.valueOf(e).replace(' ', '_'));
                }
            }
        }

        String stop() throws InterruptedException {
            stop = true;
            for (Thread thread : threads) {
                thread.join(TimeUnit.SECONDS.toMillis(60));
            }
            store.close();
            StringBuilder perKey = new StringBuilder();
            for (int k = 0; k < keys.size(); k++) {
                perKey.append(k == 0 ? "" : ",").append(keys.get(k)).append('=').append(allowed.get(k));
            }
            return "denied=" + denied + " late=" + late + " timeouts=" + timeouts + " errors=" + errors
                    + " error=" + firstError.get() + " allowed=" + perKey;
        }
    }
}
