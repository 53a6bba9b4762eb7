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
 * both count.
 */
final class HazelcastSharedRules implements SharedRules {

    private final IMap<String, String> map;
    private final String member;
    private UUID listener;

    HazelcastSharedRules(HazelcastInstance hazelcast, String mapName) {
        this.map = hazelcast.getMap(mapName);
        this.member = hazelcast.getLocalEndpoint() instanceof Member local ? "member " + local.getAddress()
                : "client " + hazelcast.getLocalEndpoint().getUuid();
    }

    @Override
    public Map<String, RuleOverlay> start(BiConsumer<String, RuleOverlay> changed) {
        listener = map.addEntryListener(new Listener(changed), true); // first, so nothing made meanwhile is missed
        Map<String, RuleOverlay> made = new TreeMap<>();
        for (Map.Entry<String, String> entry : map.entrySet()) {
            made.put(entry.getKey(), RuleOverlay.decode(entry.getValue()));
        }
        return made;
    }

    @Override
    public RuleOverlay update(String rule, UnaryOperator<RuleOverlay> change) {
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
        if (listener != null) {
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
