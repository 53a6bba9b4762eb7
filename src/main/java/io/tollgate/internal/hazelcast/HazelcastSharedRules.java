package io.tollgate.internal.hazelcast;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryMergedListener;
import com.hazelcast.map.listener.EntryRemovedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;
import io.tollgate.internal.runtime.RuleOverlay;
import io.tollgate.internal.runtime.SharedRules;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.function.UnaryOperator;
import java.util.logging.Logger;

/**
 * The operator's rule changes in an IMap of plain texts ({@link RuleOverlay#encode()}), one entry per rule, which
 * every member listens to; a change is made under the entry's lock, so two members changing one rule at once
 * both count. A client whose cluster is out of reach at deployment starts without the changes and takes them in
 * as soon as it reaches the cluster ({@link ClusterAttachment}); an instance that replaces a dead one takes them in
 * the same way. Events a member missed are caught up by {@link #snapshot()}.
 */
final class HazelcastSharedRules implements SharedRules {

    private static final Logger LOG = Logger.getLogger(HazelcastSharedRules.class.getName());
    /** The values no overlay that were said at WARNING already, each once; a bounded number of them. */
    private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();
    private static final int MAX_WARNED = 1_000;

    private final InstanceSource source;
    private final String mapName;
    private final String member;
    private volatile IMap<String, Object> map;
    private BiConsumer<String, RuleOverlay> changed;
    private ClusterAttachment attachment;
    private UUID listener;

    HazelcastSharedRules(InstanceSource source, String mapName) {
        this.source = source;
        this.mapName = mapName;
        HazelcastInstance hazelcast = source.instance();
        this.member = hazelcast.getLocalEndpoint() instanceof Member local ? "member " + local.getAddress()
                : "client " + hazelcast.getLocalEndpoint().getUuid();
    }

    /** @return the changes made before this member started; those a client could not reach yet are told to {@code changed} later */
    @Override
    public synchronized Map<String, RuleOverlay> start(BiConsumer<String, RuleOverlay> changed) {
        this.changed = changed;
        Map<String, RuleOverlay> made = new TreeMap<>();
        attach(source.instance(), made);
        source.onReplaced(next -> attach(next, null));
        return made;
    }

    /**
     * Listens to {@code hazelcast}'s map, then reads what it holds: into {@code made} the first time it is reached at
     * deployment, to the listener otherwise.
     */
    private synchronized void attach(HazelcastInstance hazelcast, Map<String, RuleOverlay> made) {
        if (attachment != null) {
            attachment.close();
        }
        map = null;
        listener = null;
        boolean[] late = {made == null};
        attachment = ClusterAttachment.of("The cluster's rule changes (map " + mapName + ")", () -> {
            IMap<String, Object> shared = hazelcast.getMap(mapName);
            synchronized (this) {
                if (listener == null) { // first, so nothing made meanwhile is missed; once, whatever failed after it
                    listener = shared.addEntryListener(new Listener(changed), true);
                }
            }
            for (Map.Entry<String, RuleOverlay> entry : read(shared).entrySet()) {
                if (late[0]) {
                    changed.accept(entry.getKey(), entry.getValue());
                } else {
                    made.put(entry.getKey(), entry.getValue());
                }
            }
            map = shared;
        });
        late[0] = true;
    }

    /** @throws IllegalStateException while the cluster has not been reached */
    @Override
    public Map<String, RuleOverlay> snapshot() {
        return read(reached());
    }

    /** @return the overlays of the map, leaving out (at WARNING) any value that is no overlay */
    private static Map<String, RuleOverlay> read(IMap<String, Object> shared) {
        Map<String, RuleOverlay> overlays = new TreeMap<>();
        for (Map.Entry<String, Object> entry : shared.entrySet()) {
            RuleOverlay overlay = readable(entry.getKey(), entry.getValue());
            if (overlay != null) {
                overlays.put(entry.getKey(), overlay);
            }
        }
        return overlays;
    }

    /**
     * @return the overlay {@code value} encodes, or {@code null} for none: a value that is no overlay (a write to the
     *         map by anything but Tollgate) counts as none, and is said at WARNING, so that it stops neither the other
     *         rules' changes nor the next change of its own rule, which replaces it
     */
    private static RuleOverlay readable(String rule, Object value) {
        if (value == null) {
            return null;
        }
        try {
            return RuleOverlay.read(value);
        } catch (IllegalArgumentException e) {
            if (WARNED.size() < MAX_WARNED && WARNED.add(rule + '\n' + value)) {
                LOG.warning("The shared rule changes hold, for rule '" + rule + "', " + e.getMessage() + "; Tollgate did not "
                        + "write it and leaves it out: the rule keeps its configured values until its next change");
            }
            return null;
        }
    }

    /** @throws IllegalStateException while the cluster has not been reached */
    @Override
    public RuleOverlay update(String rule, UnaryOperator<RuleOverlay> change) {
        IMap<String, Object> map = reached();
        map.lock(rule);
        try {
            RuleOverlay next = change.apply(readable(rule, map.get(rule)));
            if (next == null) {
                map.delete(rule);
            } else {
                map.set(rule, next.encode());
            }
            return next;
        } finally {
            map.unlock(rule);
        }
    }

    private IMap<String, Object> reached() {
        IMap<String, Object> map = this.map;
        if (map == null) {
            throw new IllegalStateException("the cluster's rule changes (map " + mapName + ") are out of reach; "
                    + "nothing was changed");
        }
        return map;
    }

    @Override
    public String member() {
        return member;
    }

    @Override
    public synchronized void close() {
        if (attachment != null) {
            attachment.close();
        }
        IMap<String, Object> map = this.map;
        if (map != null && listener != null) {
            try {
                map.removeEntryListener(listener);
            } catch (RuntimeException e) {
                // the instance is going down with the application
            }
        }
    }

    private record Listener(BiConsumer<String, RuleOverlay> changed) implements EntryAddedListener<String, Object>,
            EntryUpdatedListener<String, Object>, EntryRemovedListener<String, Object>, EntryMergedListener<String, Object> {

        @Override
        public void entryAdded(EntryEvent<String, Object> event) {
            changed.accept(event.getKey(), readable(event.getKey(), event.getValue()));
        }

        @Override
        public void entryUpdated(EntryEvent<String, Object> event) {
            changed.accept(event.getKey(), readable(event.getKey(), event.getValue()));
        }

        @Override
        public void entryRemoved(EntryEvent<String, Object> event) {
            changed.accept(event.getKey(), null);
        }

        @Override
        public void entryMerged(EntryEvent<String, Object> event) {
            changed.accept(event.getKey(), readable(event.getKey(), event.getValue()));
        }
    }
}
