package io.tollgate.internal.hazelcast;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.map.MapEvent;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryEvictedListener;
import com.hazelcast.map.listener.EntryExpiredListener;
import com.hazelcast.map.listener.EntryMergedListener;
import com.hazelcast.map.listener.EntryRemovedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;
import com.hazelcast.map.listener.MapClearedListener;
import io.tollgate.internal.core.Clock;
import io.tollgate.internal.store.BanSharing;
import io.tollgate.internal.store.Bans;
import io.tollgate.internal.store.BucketStore;
import java.util.Map;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Bans shared through an IMap of their own ({@code <bucket map>-bans}): the store key to the ban's end (µs since
 * the epoch, a {@code Long}, which every member reads without Tollgate's classes), with a time-to-live of the ban's
 * length. Every member and client keeps a copy, filled at start from the map and kept by an entry listener (added,
 * updated, removed, expired, evicted, cleared), and answers bans from that copy alone. A ban is written only where
 * the map holds no current one ({@code putIfAbsent}), so that one member's ban is every member's.
 */
final class HazelcastBanSharing implements BanSharing {

    private static final Logger LOG = Logger.getLogger(HazelcastBanSharing.class.getName());
    /** Appended to the bucket map's name for the map of bans. */
    static final String SUFFIX = "-bans";
    /** Writes of a ban over entries that are no current ban, before it is written whatever the map holds. */
    private static final int CLAIM_ATTEMPTS = 3;

    private final IMap<String, Object> bans;
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

    private HazelcastBanSharing(IMap<String, Object> bans, IMap<String, Object> buckets, UUID listener) {
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
        return open(hazelcast, mapName, counters, Bans.DEFAULT_MAX_ENTRIES);
    }

    /** @param maxEntries the most bans this member keeps */
    static Bans open(HazelcastInstance hazelcast, String mapName, BucketStore counters, int maxEntries) {
        return open(InstanceSource.of(hazelcast), mapName, counters, maxEntries);
    }

    /**
     * @param source     where the instance comes from, and is replaced: the copy then follows the new one's map
     * @param maxEntries the most bans this member keeps
     * @return the bans of this member, a copy of the cluster's from now on
     */
    static Bans open(InstanceSource source, String mapName, BucketStore counters, int maxEntries) {
        HazelcastInstance first = source.instance();
        Clock clock = first.getLocalEndpoint() instanceof Member ? MemberClock.of(first) : Clock.SYSTEM;
        Attachment attachment = new Attachment(mapName);
        Bans copy = new Bans(counters, clock, attachment, maxEntries);
        attachment.copy = copy;
        attachment.attach(first);
        source.onReplaced(attachment::attach);
        source.onCatchUp(missedEvents -> {
            HazelcastBanSharing reached = attachment.reached();
            if (reached != null) {
                reached.catchUp(copy, missedEvents);
            }
        });
        return copy;
    }

    /**
     * Reads the map again into this member's copy, after the writes of bans started here so far: bans the map holds
     * are added or updated, bans it no longer holds are dropped (a lift or an end whose event was missed). A periodic
     * look ({@code missedEvents} false) reads the whole map only if its size differs from the copy's (the map's size
     * counted up to the most bans the copy keeps).
     */
    void catchUp(Bans copy, boolean missedEvents) {
        writer.execute(() -> {
            try {
                if (!missedEvents && Math.min(bans.size(), copy.maxEntries()) == copy.size()) {
                    return;
                }
                copy.reconcile(Map.copyOf(bans));
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "The cluster's bans could not be read again; they are at the next catch-up", e);
            }
        });
    }

    @Override
    public CompletionStage<OptionalLong> start(String storeKey, long untilMicros, long durationMicros, long nowMicros) {
        long ttlMillis = Math.max(1, Math.floorDiv(durationMicros + 999, 1_000));
        CompletableFuture<OptionalLong> decided = new CompletableFuture<>();
        try {
            writer.execute(() -> decided.complete(claim(storeKey, untilMicros, ttlMillis, nowMicros)));
        } catch (RejectedExecutionException e) {
            return MINE; // closing
        }
        return decided;
    }

    /**
     * Writes the ban unless the map holds a current one, atomically: of several members that start a ban of one key
     * at once, the first write is kept. An entry that is no current ban (one over by the members' clocks, whose entry
     * lives on until it expires in real time; or a value Tollgate did not write) is removed, if it is still there, and
     * the write tried again.
     *
     * @return empty if this member's ban was written (or could not be: then it holds here only), else the current one
     */
    private OptionalLong claim(String storeKey, long untilMicros, long ttlMillis, long nowMicros) {
        try {
            for (int attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
                Object held = bans.putIfAbsent(storeKey, untilMicros, ttlMillis, TimeUnit.MILLISECONDS);
                if (held == null) {
                    return OptionalLong.empty();
                }
                if (Bans.isCurrent(held, nowMicros)) {
                    return OptionalLong.of((Long) held);
                }
                bans.remove(storeKey, held);
            }
            bans.set(storeKey, untilMicros, ttlMillis, TimeUnit.MILLISECONDS); // something keeps writing there: this ban wins
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "A ban could not be shared with the cluster; it holds on this member only", e);
        }
        return OptionalLong.empty();
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

    /**
     * This member's bans until an instance's map is reached (they hold here only), then that map's sharing; attached
     * again to each instance that replaces the current one.
     */
    private static final class Attachment implements BanSharing {
        private final String mapName;
        private Bans copy;
        private ClusterAttachment reaching;
        private HazelcastBanSharing sharing;

        Attachment(String mapName) {
            this.mapName = mapName;
        }

        synchronized void attach(HazelcastInstance hazelcast) {
            if (reaching != null) {
                reaching.close();
            }
            if (sharing != null) {
                sharing.close();
                sharing = null;
                copy.share(this);
            }
            UUID[] listener = {null};
            reaching = ClusterAttachment.of("The cluster's bans (map " + mapName + SUFFIX + ")", () -> {
                IMap<String, Object> bans = hazelcast.getMap(mapName + SUFFIX);
                if (listener[0] == null) { // the listener first, then what is there: a ban started meanwhile is not missed
                    listener[0] = bans.addEntryListener(new Copier(copy), true);
                }
                for (Map.Entry<String, Object> ban : bans.entrySet()) {
                    copy.copied(ban.getKey(), ban.getValue());
                }
                HazelcastBanSharing reached = new HazelcastBanSharing(bans, hazelcast.getMap(mapName), listener[0]);
                synchronized (this) {
                    sharing = reached;
                }
                copy.share(reached);
            });
        }

        /** @return the sharing of the map reached, or {@code null} while none is */
        synchronized HazelcastBanSharing reached() {
            return sharing;
        }

        @Override
        public CompletionStage<OptionalLong> start(String storeKey, long untilMicros, long durationMicros, long nowMicros) {
            return MINE;
        }

        @Override
        public void lifted(String storeKey, String counterKey) {
        }

        @Override
        public synchronized void close() {
            if (reaching != null) {
                reaching.close();
            }
        }
    }

    /** Keeps this member's copy as the map changes. */
    private static final class Copier implements EntryAddedListener<String, Object>, EntryUpdatedListener<String, Object>,
            EntryRemovedListener<String, Object>, EntryExpiredListener<String, Object>, EntryEvictedListener<String, Object>,
            EntryMergedListener<String, Object>, MapClearedListener {

        private final Bans copy;

        Copier(Bans copy) {
            this.copy = copy;
        }

        @Override
        public void entryAdded(EntryEvent<String, Object> event) {
            copy.copied(event.getKey(), event.getValue());
        }

        @Override
        public void entryUpdated(EntryEvent<String, Object> event) {
            copy.copied(event.getKey(), event.getValue());
        }

        @Override
        public void entryRemoved(EntryEvent<String, Object> event) {
            copy.dropped(event.getKey(), event.getOldValue());
        }

        @Override
        public void entryExpired(EntryEvent<String, Object> event) {
            copy.dropped(event.getKey(), event.getOldValue());
        }

        @Override
        public void entryEvicted(EntryEvent<String, Object> event) {
            copy.dropped(event.getKey(), event.getOldValue());
        }

        @Override
        public void entryMerged(EntryEvent<String, Object> event) {
            if (event.getValue() != null) {
                copy.copied(event.getKey(), event.getValue());
            }
        }

        @Override
        public void mapCleared(MapEvent event) {
            copy.droppedAll();
        }
    }
}
