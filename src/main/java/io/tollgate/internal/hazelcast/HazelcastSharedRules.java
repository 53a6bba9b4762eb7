package io.tollgate.internal.hazelcast;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryRemovedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;
import io.tollgate.internal.runtime.RuleOverlay;
import io.tollgate.internal.runtime.SharedRules;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.function.UnaryOperator;

/**
 * The operator's rule changes in an IMap of plain texts ({@link RuleOverlay#encode()}), one entry per rule, which
 * every member listens to; a change is made under the entry's lock, so two members changing one rule at once
 * both count. A client whose cluster is out of reach at deployment starts without the changes and takes them in
 * as soon as it reaches the cluster ({@link ClusterAttachment}).
 */
final class HazelcastSharedRules implements SharedRules {

    private final HazelcastInstance hazelcast;
    private final String mapName;
    private final String member;
    private volatile IMap<String, String> map;
    private volatile UUID listener;
    private ClusterAttachment attachment;

    HazelcastSharedRules(HazelcastInstance hazelcast, String mapName) {
        this.hazelcast = hazelcast;
        this.mapName = mapName;
        this.member = hazelcast.getLocalEndpoint() instanceof Member local ? "member " + local.getAddress()
                : "client " + hazelcast.getLocalEndpoint().getUuid();
    }

    /** @return the changes made before this member started; those a client could not reach yet are told to {@code changed} later */
    @Override
    public Map<String, RuleOverlay> start(BiConsumer<String, RuleOverlay> changed) {
        Map<String, RuleOverlay> made = new TreeMap<>();
        boolean[] late = {false};
        attachment = ClusterAttachment.of("The cluster's rule changes (map " + mapName + ")", () -> {
            IMap<String, String> shared = hazelcast.getMap(mapName);
            if (listener == null) { // first, so nothing made meanwhile is missed; once, whatever failed after it
                listener = shared.addEntryListener(new Listener(changed), true);
            }
            for (Map.Entry<String, String> entry : shared.entrySet()) {
                RuleOverlay overlay = RuleOverlay.decode(entry.getValue());
                if (late[0]) {
                    changed.accept(entry.getKey(), overlay);
                } else {
                    made.put(entry.getKey(), overlay);
                }
            }
            map = shared;
        });
        late[0] = true;
        return made;
    }

    /** @throws IllegalStateException while the cluster has not been reached */
    @Override
    public RuleOverlay update(String rule, UnaryOperator<RuleOverlay> change) {
        IMap<String, String> map = this.map;
        if (map == null) {
            throw new IllegalStateException("the cluster's rule changes (map " + mapName + ") are out of reach; "
                    + "nothing was changed");
        }
        map.lock(rule);
        try {
            String text = map.get(rule);
            RuleOverlay next = change.apply(text == null ? null : RuleOverlay.decode(text));
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

    @Override
    public String member() {
        return member;
    }

    @Override
    public void close() {
        if (attachment != null) {
            attachment.close();
        }
        IMap<String, String> map = this.map;
        if (map != null && listener != null) {
            try {
                map.removeEntryListener(listener);
            } catch (RuntimeException e) {
                // the instance is going down with the application
            }
        }
    }

    private record Listener(BiConsumer<String, RuleOverlay> changed) implements EntryAddedListener<String, String>,
            EntryUpdatedListener<String, String>, EntryRemovedListener<String, String> {

        @Override
        public void entryAdded(EntryEvent<String, String> event) {
            changed.accept(event.getKey(), RuleOverlay.decode(event.getValue()));
        }

        @Override
        public void entryUpdated(EntryEvent<String, String> event) {
            changed.accept(event.getKey(), RuleOverlay.decode(event.getValue()));
        }

        @Override
        public void entryRemoved(EntryEvent<String, String> event) {
            changed.accept(event.getKey(), null);
        }
    }
}
