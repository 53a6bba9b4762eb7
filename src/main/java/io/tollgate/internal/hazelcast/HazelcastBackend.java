package io.tollgate.internal.hazelcast;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.internal.runtime.SharedRules;
import io.tollgate.internal.store.Bans;
import io.tollgate.internal.store.BatchingBucketStore;
import io.tollgate.internal.store.BucketReading;
import io.tollgate.internal.store.BucketStore;
import io.tollgate.internal.store.StoreCluster;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Everything Tollgate keeps in one Hazelcast instance: the buckets ({@link #store()}), the operator's rule changes
 * ({@link #sharedRules}), the bans ({@link #bans}), and what it knows of the cluster ({@link #cluster()}).
 *
 * <p>An instance Tollgate started itself (its embedded member, or its client) that shuts down while the application
 * runs (a client that gave up reconnecting, a member that failed) is replaced: a new one is started after
 * {@value #FIRST_RETRY_SECONDS} s, then at growing intervals up to {@value #MAX_RETRY_SECONDS} s until one starts;
 * a replacement that dies again within {@value #SHORT_LIFE_SECONDS} s of its start makes the next wait longer the same
 * way, so that a client that keeps giving up on a cluster that is away is not restarted every second. Meanwhile every
 * rule answers by its {@code on-store-failure} policy and the readiness check says why; the first death of a series is
 * logged at WARNING, the others at FINE. The buckets,
 * the rule changes and the bans then go on in the new instance, each part reading the cluster's state again. An
 * instance Tollgate borrowed (the application's, the server's) is never started or stopped by it.
 */
public final class HazelcastBackend implements InstanceSource, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(HazelcastBackend.class.getName());
    static final long FIRST_RETRY_SECONDS = 1;
    static final long MAX_RETRY_SECONDS = 30;
    /** An instance that dies sooner after its start counts as one more failed attempt. */
    static final long SHORT_LIFE_SECONDS = 60;

    private final String mapName;
    private final Function<HazelcastInstance, HazelcastBucketStore> stores;
    /** Starts a new instance of Tollgate's own; {@code null} for a borrowed one. */
    private final Supplier<HazelcastInstance> starter;
    private final String what;
    private final Consumer<HazelcastInstance> onClose;
    private final ClusterTasks tasks = new ClusterTasks();
    private final ClusterView view;
    private final Current current = new Current();
    private final List<Consumer<HazelcastInstance>> replaced = new CopyOnWriteArrayList<>();
    private volatile HazelcastInstance instance;
    private volatile HazelcastBucketStore store;
    private volatile Consumer<String> forget;
    private volatile boolean closing;
    private Future<?> watch;
    /** When the current instance, if it replaced a dead one, started (System.nanoTime); 0 for the first instance. */
    private volatile long replacedAt;
    /** How many replacements in a row died soon after their start. */
    private volatile int shortLives;

    /**
     * @param instance  the instance to start with
     * @param stores    makes the bucket store of an instance
     * @param starter   starts a new instance when Tollgate's own died; {@code null} if the instance is borrowed
     * @param what      the instance, for the log ("Tollgate's embedded member")
     * @param discovery how members are looked for, for the readiness check and the warnings
     * @param onClose   what closing also ends, given the current instance (shutting down one Tollgate started,
     *                  undoing a registration on a borrowed one)
     */
    HazelcastBackend(HazelcastInstance instance, String mapName, Function<HazelcastInstance, HazelcastBucketStore> stores,
            Supplier<HazelcastInstance> starter, String what, Supplier<String> discovery, Consumer<HazelcastInstance> onClose) {
        this.mapName = mapName;
        this.stores = stores;
        this.starter = starter;
        this.what = what;
        this.onClose = onClose;
        this.view = new ClusterView(mapName, discovery, tasks);
        try {
            use(instance);
            view.start();
        } catch (RuntimeException | LinkageError e) {
            closing = true;
            tasks.close();
            onClose.accept(instance); // the instance Tollgate started goes with the store it could not make
            throw e;
        }
    }

    /** @return the buckets, in whichever instance is current */
    public BatchingBucketStore store() {
        return current;
    }

    /** @return what this instance knows of its cluster: its members, the instances sharing the map */
    public StoreCluster cluster() {
        return view;
    }

    /** @return the operator's rule changes, in the map {@code <bucket map>-rules} */
    public SharedRules sharedRules() {
        return new HazelcastSharedRules(this, mapName + "-rules");
    }

    /**
     * @param counters   the store that counts denials: the one that decides, without reserves or remembered denials
     * @param maxEntries the most bans this member keeps ({@code tollgate.bans.max-entries})
     * @return the bans of the cluster, a copy of which this member keeps; closed before the store
     */
    public Bans bans(BucketStore counters, int maxEntries) {
        return HazelcastBanSharing.open(this, mapName, counters, maxEntries);
    }

    @Override
    public void onCatchUp(CatchUp catchUp) {
        view.onCatchUp(catchUp);
    }

    @Override
    public HazelcastInstance instance() {
        return instance;
    }

    @Override
    public void onReplaced(Consumer<HazelcastInstance> attach) {
        replaced.add(attach);
    }

    /** @return the store of the current instance (for tests) */
    HazelcastBucketStore currentStore() {
        return store;
    }

    /** Works with {@code next} from now on. */
    private void use(HazelcastInstance next) {
        HazelcastBucketStore nextStore = stores.apply(next);
        Consumer<String> resets = forget;
        if (resets != null) {
            nextStore.listenForResets(resets);
        }
        instance = next;
        store = nextStore;
        view.attach(next);
        if (starter != null) {
            if (watch != null) {
                watch.cancel(false);
            }
            watch = ConnectionWatch.start(next, tasks);
            next.getLifecycleService().addLifecycleListener(event -> {
                if (event.getState() == LifecycleEvent.LifecycleState.SHUTDOWN && !closing) {
                    died(next, Instant.now());
                }
            });
        }
    }

    private void died(HazelcastInstance dead, Instant when) {
        boolean soon = replacedAt != 0 && System.nanoTime() - replacedAt < TimeUnit.SECONDS.toNanos(SHORT_LIFE_SECONDS);
        shortLives = soon ? shortLives + 1 : 0;
        long wait = Math.min(MAX_RETRY_SECONDS, FIRST_RETRY_SECONDS << Math.min(shortLives, 5));
        String problem = what + " shut down at " + when + "; Tollgate starts a new one in " + wait + " s, and until then "
                + "every rule answers by its on-store-failure policy";
        LOG.log(shortLives == 0 ? Level.WARNING : Level.FINE, problem);
        view.problem(problem);
        tasks.after(wait, TimeUnit.SECONDS, () -> restart(dead, wait, 1));
    }

    private void restart(HazelcastInstance dead, long waited, int attempt) {
        if (closing || instance != dead) {
            return;
        }
        HazelcastInstance next;
        try {
            next = starter.get();
        } catch (RuntimeException | LinkageError e) {
            long wait = Math.min(MAX_RETRY_SECONDS, waited * 2);
            view.problem(what + " shut down; starting a new one failed " + attempt + " time(s), last: " + e
                    + "; trying again in " + wait + " s");
            LOG.warning(what + " could not be started again (" + e + "); trying again in " + wait + " s");
            tasks.after(wait, TimeUnit.SECONDS, () -> restart(dead, wait, attempt + 1));
            return;
        }
        if (closing) {
            next.shutdown();
            return;
        }
        HazelcastBucketStore old = store;
        replacedAt = System.nanoTime();
        use(next);
        old.close();
        for (Consumer<HazelcastInstance> attach : replaced) {
            attach.accept(next);
        }
        LOG.log(shortLives == 0 ? Level.INFO : Level.FINE, what + " started again, after " + attempt
                + " attempt(s); Tollgate decides with it from now on");
    }

    @Override
    public void close() {
        closing = true;
        tasks.close();
        view.close();
        try {
            store.close();
        } finally {
            onClose.accept(instance); // whichever is current: the one Tollgate started last
        }
    }

    /** The bucket store of whichever instance is current. */
    private final class Current implements BatchingBucketStore {

        @Override
        public CompletionStage<Outcome> acquire(String key, TokenBucket bucket, long cost) {
            return store.acquire(key, bucket, cost);
        }

        @Override
        public CompletionStage<Outcome> acquire(String key, TokenBucket bucket, long cost, Answered answered) {
            return store.acquire(key, bucket, cost, answered);
        }

        @Override
        public CompletionStage<Outcome[]> acquireAll(String key, TokenBucket bucket, long[] costs, long[] waitedNanos) {
            return store.acquireAll(key, bucket, costs, waitedNanos);
        }

        @Override
        public CompletionStage<Outcome> refund(String key, TokenBucket bucket, long tokens) {
            return store.refund(key, bucket, tokens);
        }

        @Override
        public boolean takesRefunds() {
            return store.takesRefunds();
        }

        @Override
        public void warmUp(TokenBucket bucket) throws Exception {
            store.warmUp(bucket);
        }

        @Override
        public BucketReading read(String key) {
            return store.read(key);
        }

        @Override
        public boolean reset(String key) {
            return store.reset(key);
        }

        @Override
        public CompletionStage<Void> retain(String key, TokenBucket limits) {
            return store.retain(key, limits);
        }

        @Override
        public CompletionStage<Void> retainRule(String rule, TokenBucket limits, Set<String> except) {
            return store.retainRule(rule, limits, except);
        }

        @Override
        public void listenForResets(Consumer<String> forget) {
            HazelcastBackend.this.forget = forget;
            store.listenForResets(forget);
        }

        @Override
        public void close() {
            HazelcastBackend.this.close();
        }
    }
}
