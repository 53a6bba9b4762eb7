package io.tollgate.internal.hazelcast;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.map.MapEvent;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryEvictedListener;
import com.hazelcast.map.listener.EntryExpiredListener;
import com.hazelcast.map.listener.EntryRemovedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;
import com.hazelcast.map.listener.MapClearedListener;
import io.tollgate.internal.core.Clock;
import io.tollgate.internal.store.BanSharing;
import io.tollgate.internal.store.Bans;
import io.tollgate.internal.store.BucketStore;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Bans shared through an IMap of their own ({@code <bucket map>-bans}): the store key to the ban's end (µs since
 * the epoch, a {@code Long}, which every member reads without Tollgate's classes), with a time-to-live of the ban's
 * length. Every member and client keeps a copy, filled at start from the map and kept by an entry listener (added,
 * updated, removed, expired, evicted, cleared), and answers bans from that copy alone.
 */
final class HazelcastBanSharing implements BanSharing {

    private static final Logger LOG = Logger.getLogger(HazelcastBanSharing.class.getName());
    /** Appended to the bucket map's name for the map of bans. */
    static final String SUFFIX = "-bans";

    private final IMap<String, Long> bans;
    private final IMap<String, Object> buckets;
    private final UUID listener;
    /**
     * Where a ban is written to the map: a ban starts as the count of a denial comes back, on a thread of Hazelcast's
     * that may not call the cluster itself.
     */
    private final ExecutorService writer = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "tollgate-bans");
        thread.setDaemon(true);
        return thread;
    });

    private HazelcastBanSharing(IMap<String, Long> bans, IMap<String, Object> buckets, UUID listener) {
        this.bans = bans;
        this.buckets = buckets;
        this.listener = listener;
    }

    /**
     * @param hazelcast a member or client; a member's bans end on its clock ({@link MemberClock})
     * @param mapName   the bucket map, where the denials are counted and next to which the bans are kept
     * @param counters  the store that counts denials: the one that decides, without reserves or remembered denials
     * @return the bans of this member, a copy of the cluster's from now on
     */
    static Bans open(HazelcastInstance hazelcast, String mapName, BucketStore counters) {
        Clock clock = hazelcast.getLocalEndpoint() instanceof Member ? MemberClock.of(hazelcast) : Clock.SYSTEM;
        // until the cluster is reached, bans hold on this member only, and closing the bans stops trying to reach it
        ClusterAttachment[] attachment = {null};
        Bans copy = new Bans(counters, clock, new BanSharing() {
            @Override
            public void started(String storeKey, long untilMicros, long durationMicros) {
            }

            @Override
            public void lifted(String storeKey, String counterKey) {
            }

            @Override
            public void close() {
                if (attachment[0] != null) {
                    attachment[0].close();
                }
            }
        });
        UUID[] listener = {null};
        attachment[0] = ClusterAttachment.of("The cluster's bans (map " + mapName + SUFFIX + ")", () -> {
            IMap<String, Long> bans = hazelcast.getMap(mapName + SUFFIX);
            if (listener[0] == null) { // the listener first, then what is there: a ban started meanwhile is not missed
                listener[0] = bans.addEntryListener(new Copier(copy), true);
            }
            for (Map.Entry<String, Long> ban : bans.entrySet()) {
                copy.copied(ban.getKey(), ban.getValue());
            }
            copy.share(new HazelcastBanSharing(bans, hazelcast.getMap(mapName), listener[0]));
        });
        return copy;
    }

    @Override
    public void started(String storeKey, long untilMicros, long durationMicros) {
        long ttlMillis = Math.max(1, Math.floorDiv(durationMicros + 999, 1_000));
        writer.execute(() -> {
            try {
                bans.set(storeKey, untilMicros, ttlMillis, TimeUnit.MILLISECONDS);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "A ban could not be shared with the cluster; it holds on this member only", e);
            }
        });
    }

    @Override
    public void lifted(String storeKey, String counterKey) {
        bans.delete(storeKey);
        buckets.delete(counterKey);
    }

    @Override
    public void close() {
        writer.shutdown();
        try {
            bans.removeEntryListener(listener);
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "The bans' listener was not removed (the instance is stopping)", e);
        }
    }

    /** Keeps this member's copy as the map changes. */
    private static final class Copier implements EntryAddedListener<String, Long>, EntryUpdatedListener<String, Long>,
            EntryRemovedListener<String, Long>, EntryExpiredListener<String, Long>, EntryEvictedListener<String, Long>,
            MapClearedListener {

        private final Bans copy;

        Copier(Bans copy) {
            this.copy = copy;
        }

        @Override
        public void entryAdded(EntryEvent<String, Long> event) {
            copy.copied(event.getKey(), event.getValue());
        }

        @Override
        public void entryUpdated(EntryEvent<String, Long> event) {
            copy.copied(event.getKey(), event.getValue());
        }

        @Override
        public void entryRemoved(EntryEvent<String, Long> event) {
            copy.dropped(event.getKey(), event.getOldValue());
        }

        @Override
        public void entryExpired(EntryEvent<String, Long> event) {
            copy.dropped(event.getKey(), event.getOldValue());
        }

        @Override
        public void entryEvicted(EntryEvent<String, Long> event) {
            copy.dropped(event.getKey(), event.getOldValue());
        }

        @Override
        public void mapCleared(MapEvent event) {
            copy.droppedAll();
        }
    }
}
