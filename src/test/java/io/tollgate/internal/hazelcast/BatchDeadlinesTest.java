package io.tollgate.internal.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.EntryProcessor;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.internal.store.BatchingBucketStore;
import io.tollgate.internal.store.CoalescingStore;
import io.tollgate.testing.HazelcastTestCluster;
import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * A coalesced batch holds each request to its own caller's deadline. Requests queue on a hot key
 * while its first call is in flight; how long each has waited is set on the coalescing store's clock,
 * and the owner (a real member) is kept busy by a processor that holds its partition thread until the
 * test has seen a deadline pass there. Counted: exactly the live requests are charged and granted;
 * those whose callers gave up in the queue are not sent; those whose deadline passes on the way are
 * skipped by the owner, uncharged. With wire version 0 in use, a batch keeps one deadline, that of its
 * oldest request still waited for.
 */
@Tag("hazelcast")
@Execution(ExecutionMode.CONCURRENT) // mostly waits: runs beside other classes
@ResourceLock("BatchDeadlinesTest") // and its own tests one after another
class BatchDeadlinesTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    /** How long before its deadline a late request leaves in the batch. */
    private static final long LATE_BY_MILLIS = 1_000;
    private static final TokenBucket BUCKET = TokenBucket.of(Limit.of(10, 1, Duration.ofHours(1)));

    private HazelcastTestCluster cluster;
    private HazelcastInstance caller;
    private HazelcastInstance owner;
    private String key;
    private final AtomicLong nanos = new AtomicLong();

    @BeforeEach
    void cluster() {
        cluster = HazelcastTestCluster.start(2);
        caller = cluster.member(0);
        owner = cluster.member(1);
        for (int i = 0; ; i++) {
            key = BucketKeys.of("batch-deadlines", "k" + i);
            if (cluster.ownerOf(key) == owner) {
                break;
            }
        }
    }

    @AfterEach
    void stop() {
        PartitionBlocker.release();
        cluster.close();
    }

    @Test
    void eachRequestIsHeldToItsOwnCallersDeadline() throws Exception {
        HazelcastBucketStore other = new HazelcastBucketStore(owner, BucketMapConfig.DEFAULT_MAP_NAME, true, TIMEOUT);
        HazelcastBucketStore store = new HazelcastBucketStore(caller, BucketMapConfig.DEFAULT_MAP_NAME, true, TIMEOUT);
        awaitVersion(store, Serialization.WIRE_VERSION); // each request with its own deadline, from version 1 on
        Batch batch = new Batch(store);
        List<CompletableFuture<Outcome>> gaveUp = batch.queue(waiting(TIMEOUT.toMillis() + 1_000), 1, 1);
        List<CompletableFuture<Outcome>> late = batch.queue(waiting(TIMEOUT.toMillis() - LATE_BY_MILLIS), 3, 3);
        List<CompletableFuture<Outcome>> live = batch.queue(waiting(0), 2, 2, 5, 1);
        batch.sendDelayedOnTheOwner();

        assertThat(batch.first.get(30, TimeUnit.SECONDS).remaining()).isEqualTo(9);
        assertTooLate(gaveUp, "their callers gave up while they were queued: not sent");
        assertTooLate(late, "their deadline passed on the way to the owner: skipped");
        assertThat(remaining(live)).as("the live requests, decided in order").containsExactly(7L, 5L, 0L, -1L);
        assertThat(acquire(store, 0).remaining()).as("charged: the first and the live ones").isZero();
        System.out.println("batch deadlines, wire version " + Serialization.WIRE_VERSION + ": of 8 queued requests 2 not sent, 2 skipped on the owner, "
                + "4 decided in order (3 granted, 1 denied); 10 tokens charged of 10, 9 of them in the batch");
        other.close();
        store.close();
    }

    @Test
    void withVersionZeroInUseABatchKeepsTheDeadlineOfItsOldestRequestStillWaitedFor() throws Exception {
        HazelcastBucketStore store = new HazelcastBucketStore(caller, BucketMapConfig.DEFAULT_MAP_NAME, true, TIMEOUT,
                WireVersions.fixed(Serialization.WIRE_V0));
        // those whose callers gave up are not sent, so they cannot expire the batch
        Batch batch = new Batch(store);
        List<CompletableFuture<Outcome>> gaveUp = batch.queue(waiting(TIMEOUT.toMillis() + 1_000), 1, 1);
        List<CompletableFuture<Outcome>> live = batch.queue(waiting(0), 2, 2);
        batch.send();
        assertThat(batch.first.get(30, TimeUnit.SECONDS).remaining()).isEqualTo(9);
        assertTooLate(gaveUp, "their callers gave up while they were queued: not sent");
        assertThat(remaining(live)).containsExactly(7L, 5L);

        // a deadline that passes on the way drops the whole batch, as Tollgate 0.1 did
        Batch next = new Batch(store);
        List<CompletableFuture<Outcome>> late = next.queue(waiting(TIMEOUT.toMillis() - LATE_BY_MILLIS), 1);
        List<CompletableFuture<Outcome>> alsoLate = next.queue(waiting(0), 1);
        next.sendDelayedOnTheOwner();
        assertThat(next.first.get(30, TimeUnit.SECONDS).remaining()).isEqualTo(4);
        assertTooLate(late, "the oldest request's deadline passed on the way");
        assertTooLate(alsoLate, "the batch carried its oldest request's deadline");
        assertThat(acquire(store, 0).remaining()).isEqualTo(4);
        store.close();
    }

    /** The coalescing store's clock when a batch leaves. */
    private static final long SENT_NANOS = TimeUnit.MILLISECONDS.toNanos(TIMEOUT.toMillis() + 1_000);

    /** @return the time on the coalescing store's clock at which a request arrives that has waited {@code millis} when the batch leaves */
    private static long waiting(long millis) {
        return SENT_NANOS - TimeUnit.MILLISECONDS.toNanos(millis);
    }

    private Outcome acquire(HazelcastBucketStore store, long cost) throws Exception {
        return store.acquire(key, BUCKET, cost).toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    private static void assertTooLate(List<CompletableFuture<Outcome>> requests, String why) {
        for (CompletableFuture<Outcome> request : requests) {
            Throwable failure = catchThrowable(() -> request.get(30, TimeUnit.SECONDS));
            assertThat(failure).as(why).isInstanceOf(ExecutionException.class);
            assertThat(failure.getCause()).as(why).hasMessage(Outcome.expiredFailure().getMessage());
        }
    }

    /** @return per request, the tokens left after it, or -1 if it was denied */
    private static List<Long> remaining(List<CompletableFuture<Outcome>> requests) throws Exception {
        List<Long> remaining = new ArrayList<>();
        for (CompletableFuture<Outcome> request : requests) {
            Outcome outcome = request.get(30, TimeUnit.SECONDS);
            remaining.add(outcome.allowed() ? outcome.remaining() : -1);
        }
        return remaining;
    }

    private static void awaitVersion(HazelcastBucketStore store, int version) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (store.wireVersion() != version && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(20);
        }
        assertThat(store.wireVersion()).isEqualTo(version);
    }

    /**
     * One key's first request, in flight until the test lets its answer through, and the requests that
     * queue behind it meanwhile, which then leave as one batch. The coalescing store's clock stands at
     * 0 when the first arrives, at each request's arrival as the test sets it, and at
     * {@link #SENT_NANOS} when the batch leaves.
     */
    private final class Batch {
        final GatedStore gated;
        final CoalescingStore coalescing;
        final CompletableFuture<Outcome> first;

        Batch(HazelcastBucketStore store) throws Exception {
            gated = new GatedStore(store);
            coalescing = new CoalescingStore(gated, nanos::get);
            nanos.set(0);
            first = coalescing.acquire(key, BUCKET, 1).toCompletableFuture();
            gated.answered.get(30, TimeUnit.SECONDS); // decided on the owner; its answer waits for the test
        }

        List<CompletableFuture<Outcome>> queue(long arrivedNanos, long... costs) {
            nanos.set(arrivedNanos);
            List<CompletableFuture<Outcome>> queued = new ArrayList<>();
            for (long cost : costs) {
                queued.add(coalescing.acquire(key, BUCKET, cost).toCompletableFuture());
            }
            return queued;
        }

        void send() throws Exception {
            nanos.set(SENT_NANOS);
            gated.gate.complete(null);
            gated.sent.get(30, TimeUnit.SECONDS);
        }

        /** Sends the batch while the owner's partition thread is held, until a late request's deadline has passed there. */
        void sendDelayedOnTheOwner() throws Exception {
            PartitionBlocker.hold(owner, key);
            send();
            long lateDeadline = gated.sent.get() + LATE_BY_MILLIS;
            ClusterTime ownerTime = ClusterTime.of(owner);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (ownerTime.now(owner) <= lateDeadline && System.nanoTime() < deadline) {
                TimeUnit.MILLISECONDS.sleep(20);
            }
            assertThat(ownerTime.now(owner)).as("the owner's cluster time").isGreaterThan(lateDeadline);
            PartitionBlocker.release();
        }
    }

    /** Lets the answer to the first single call through only when the test says so; notes when a batch was sent. */
    private final class GatedStore implements BatchingBucketStore {
        final HazelcastBucketStore store;
        final CompletableFuture<Void> gate = new CompletableFuture<>();
        final CompletableFuture<Void> answered = new CompletableFuture<>();
        /** The caller's cluster time right after the batch left: no request of it has an earlier base for its deadline. */
        final CompletableFuture<Long> sent = new CompletableFuture<>();

        GatedStore(HazelcastBucketStore store) {
            this.store = store;
        }

        @Override
        public CompletionStage<Outcome> acquire(String key, TokenBucket bucket, long cost) {
            return store.acquire(key, bucket, cost).thenCompose(outcome -> {
                answered.complete(null);
                return gate.thenApply(open -> outcome);
            });
        }

        @Override
        public CompletionStage<Outcome[]> acquireAll(String key, TokenBucket bucket, long[] costs, long[] waitedNanos) {
            CompletionStage<Outcome[]> result = store.acquireAll(key, bucket, costs, waitedNanos);
            sent.complete(ClusterTime.of(caller).now(caller));
            return result;
        }
    }

    /** Holds the partition thread of a key's owner (a processor that waits) until released. */
    static final class PartitionBlocker implements EntryProcessor<String, long[], Object>, Serializable {
        private static final long serialVersionUID = 1L;
        private static volatile CountDownLatch started = new CountDownLatch(1);
        private static volatile CountDownLatch released = new CountDownLatch(1);

        static void hold(HazelcastInstance owner, String key) throws InterruptedException {
            started = new CountDownLatch(1);
            released = new CountDownLatch(1);
            owner.<String, long[]>getMap(BucketMapConfig.DEFAULT_MAP_NAME).submitToKey(key, new PartitionBlocker());
            assertThat(started.await(60, TimeUnit.SECONDS)).as("the owner's partition thread is held").isTrue();
        }

        static void release() {
            released.countDown();
        }

        @Override
        public Object process(Map.Entry<String, long[]> entry) {
            started.countDown();
            try {
                released.await(120, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return null;
        }

        @Override
        public EntryProcessor<String, long[], Object> getBackupProcessor() {
            return null;
        }
    }
}
