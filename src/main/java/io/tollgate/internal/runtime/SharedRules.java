package io.tollgate.internal.runtime;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.UnaryOperator;

/**
 * Where the rule changes made through the operator API are kept, by rule: in a Hazelcast map that every member
 * listens to, or (the in-memory store) in this JVM only.
 */
public interface SharedRules extends AutoCloseable {

    /**
     * Starts telling {@code listener} of each rule's overlay as it changes anywhere ({@code null} when it is removed).
     *
     * @return the overlays made before, by rule: a member that starts late comes up with them
     */
    Map<String, RuleOverlay> start(BiConsumer<String, RuleOverlay> listener);

    /**
     * Changes the overlay of {@code rule} atomically with respect to every other member's changes.
     *
     * @param change from the overlay as it is ({@code null} if none) to the next one ({@code null} removes it); an
     *               exception it throws leaves the overlay as it was, and is thrown
     * @return the overlay now
     */
    RuleOverlay update(String rule, UnaryOperator<RuleOverlay> change);

    /** @return this member, as the changes made here name it */
    String member();

    /**
     * @return every rule's overlay as the store holds it now, to catch up with changes whose events this member
     *         missed (a rule without one has none)
     * @throws RuntimeException if the store cannot be reached now
     */
    Map<String, RuleOverlay> snapshot();

    @Override
    default void close() {
    }

    /** @return the overlays of this JVM only */
    static SharedRules local() {
        Map<String, RuleOverlay> overlays = new ConcurrentHashMap<>();
        return new SharedRules() {
            @Override
            public Map<String, RuleOverlay> start(BiConsumer<String, RuleOverlay> listener) {
                return Map.of();
            }

            @Override
            public RuleOverlay update(String rule, UnaryOperator<RuleOverlay> change) {
                return overlays.compute(rule, (name, overlay) -> change.apply(overlay));
            }

            @Override
            public String member() {
                return "this instance";
            }

            @Override
            public Map<String, RuleOverlay> snapshot() {
                return Map.copyOf(overlays);
            }
        };
    }
}
