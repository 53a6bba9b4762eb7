package io.tollgate.internal.hazelcast;

import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent;
import com.hazelcast.replicatedmap.ReplicatedMap;
import io.tollgate.internal.store.StoreCluster;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What one Tollgate instance knows of its Hazelcast cluster, kept up to date off the decision path:
 * <ul>
 * <li>the members, as the instance sees them (a membership listener);
 * <li>the instances of the application that share the map: each advertises itself in a replicated map,
 *     {@value #MAP_NAME} (the bucket map's name and an id of the instance → the time it last said so, expiring after
 *     three refreshes), every {@value #REFRESH_SECONDS} s and when a member joins; on a member, the members count too
 *     (from the moment they join); {@link #instances()} is the most counted over the last {@value #WINDOW_SECONDS} s, so
 *     that instances cut off a moment ago still count in a local share;
 * <li>when this instance may have missed what the others told the cluster: after a merge of a split cluster
 *     ({@code MERGED}), a member's join, a client's reconnection, or a new instance ({@link #attach}); then the parts
 *     that keep copies of the cluster's state ({@link #onCatchUp}) read it again. They also do so every
 *     {@value #CATCH_UP_SECONDS} s, so that no event missed for another reason leaves a copy stale for longer.
 * </ul>
 */
final class ClusterView implements StoreCluster {

    private static final Logger LOG = Logger.getLogger(ClusterView.class.getName());
    /** The replicated map of the instances sharing each bucket map. */
    static final String MAP_NAME = "tollgate-instances";
    static final long REFRESH_SECONDS = 10;
    static final long WINDOW_SECONDS = 120;
    static final long CATCH_UP_SECONDS = 30;

    private final String mapName;
    private final String id = UUID.randomUUID().toString();
    private final Supplier<String> discovery;
    private final ClusterTasks tasks;
    /** Told when this instance may have missed events (true) and at every periodic look (false). */
    private final List<CatchUp> catchUps = new CopyOnWriteArrayList<>();
    /** Counts of instances over the window, newest last: {time in ms, count}. Guarded by itself. */
    private final Deque<long[]> counts = new ArrayDeque<>();
    private volatile HazelcastInstance instance;
    private volatile int members = 1;
    private volatile int instances = 1;
    private volatile String problem;
    private UUID membershipListener;
    private UUID lifecycleListener;
    private long lastCatchUpMillis;

    /**
     * @param mapName   the bucket map, whose sharers are counted
     * @param discovery how members are looked for and what was found, when asked
     */
    ClusterView(String mapName, Supplier<String> discovery, ClusterTasks tasks) {
        this.mapName = mapName;
        this.discovery = discovery;
        this.tasks = tasks;
    }

    /** Works with {@code next} from now on: the first instance, or the one that replaced a dead one. */
    void attach(HazelcastInstance next) {
        HazelcastInstance previous = instance;
        if (previous != null) {
            detach(previous);
        }
        instance = next;
        problem = null;
        membershipListener = next.getCluster().addMembershipListener(new MembershipListener() {
            @Override
            public void memberAdded(MembershipEvent event) {
                members = event.getMembers().size();
                countedMembers();
                catchUp(true);
                tasks.execute(ClusterView.this::refresh);
            }

            @Override
            public void memberRemoved(MembershipEvent event) {
                members = event.getMembers().size();
            }
        });
        lifecycleListener = next.getLifecycleService().addLifecycleListener(event -> {
            if (event.getState() == LifecycleEvent.LifecycleState.MERGED
                    || event.getState() == LifecycleEvent.LifecycleState.CLIENT_CONNECTED) {
                countMembers();
                catchUp(true);
            }
        });
        countMembers();
        tasks.execute(this::refresh);
        if (previous != null) {
            catchUp(true);
        }
    }

    /** Starts the refreshes: the advertisement, the counts, and the periodic catch-up. */
    ClusterView start() {
        tasks.every(REFRESH_SECONDS, this::refresh);
        return this;
    }

    /** @param catchUp run on Tollgate's cluster thread when this instance may have missed events, and periodically */
    void onCatchUp(CatchUp catchUp) {
        catchUps.add(catchUp);
    }

    /** @param problem why the store cannot answer for a while (its instance is being replaced), or {@code null} */
    void problem(String problem) {
        this.problem = problem;
    }

    @Override
    public int members() {
        return members;
    }

    @Override
    public int instances() {
        return instances;
    }

    @Override
    public String discovery() {
        return discovery.get();
    }

    @Override
    public String problem() {
        return problem;
    }

    private void countMembers() {
        try {
            members = instance.getCluster().getMembers().size();
            countedMembers();
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "Could not count the members of Tollgate's cluster", e);
        }
    }

    /**
     * On a member, the members count as instances too (each runs the application, as far as Tollgate can tell), so that
     * the count is right from the moment a member joins, before the instances' first advertisements have spread.
     */
    private void countedMembers() {
        if (instance.getLocalEndpoint() instanceof Member) {
            counted(System.currentTimeMillis(), members);
        }
    }

    private void catchUp(boolean missedEvents) {
        tasks.execute(() -> {
            for (CatchUp catchUp : catchUps) {
                try {
                    catchUp.run(missedEvents);
                } catch (RuntimeException e) {
                    LOG.log(Level.FINE, "Tollgate could not read the cluster's state again; it tries again within "
                            + CATCH_UP_SECONDS + " s", e);
                }
            }
        });
    }

    /** Advertises this instance, counts the instances of the map, and catches up every {@value #CATCH_UP_SECONDS} s. */
    private void refresh() {
        HazelcastInstance current = instance;
        if (current == null) {
            return;
        }
        try {
            ReplicatedMap<String, Long> sharers = current.getReplicatedMap(MAP_NAME);
            long now = System.currentTimeMillis();
            sharers.put(mapName + "/" + id, now, 3 * REFRESH_SECONDS, TimeUnit.SECONDS);
            int count = 0;
            for (String key : sharers.keySet()) {
                if (key.startsWith(mapName + "/")) {
                    count++;
                }
            }
            counted(now, Math.max(1, count));
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "Could not count the instances sharing " + mapName, e);
        }
        long now = System.nanoTime() / 1_000_000;
        if (now - lastCatchUpMillis >= TimeUnit.SECONDS.toMillis(CATCH_UP_SECONDS)) {
            lastCatchUpMillis = now;
            catchUp(false);
        }
    }

    /** Keeps {@code count} and makes {@link #instances} the most of the window. */
    void counted(long nowMillis, int count) {
        synchronized (counts) {
            counts.addLast(new long[] {nowMillis, count});
            while (!counts.isEmpty() && counts.peekFirst()[0] < nowMillis - TimeUnit.SECONDS.toMillis(WINDOW_SECONDS)) {
                counts.removeFirst();
            }
            int most = 1;
            for (long[] counted : counts) {
                most = (int) Math.max(most, counted[1]);
            }
            instances = most;
        }
    }

    /** Withdraws this instance's advertisement and its listeners. */
    void close() {
        HazelcastInstance current = instance;
        if (current == null) {
            return;
        }
        try {
            current.getReplicatedMap(MAP_NAME).remove(mapName + "/" + id);
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "Could not withdraw this instance from " + MAP_NAME + "; it expires within "
                    + 3 * REFRESH_SECONDS + " s", e);
        }
        detach(current);
    }

    private void detach(HazelcastInstance previous) {
        try {
            if (membershipListener != null) {
                previous.getCluster().removeMembershipListener(membershipListener);
            }
            if (lifecycleListener != null) {
                previous.getLifecycleService().removeLifecycleListener(lifecycleListener);
            }
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "Could not remove Tollgate's cluster listeners (the instance is gone)", e);
        }
    }
}
