package io.tollgate.internal.hazelcast;

/** What reads the cluster's state again, into a copy this member keeps (the rule changes, the bans). */
@FunctionalInterface
public interface CatchUp {

    /**
     * @param missedEvents {@code true} after a merge of a split cluster, a member's join, a client's reconnection or a
     *                     new instance, when this member may have missed events; {@code false} for a periodic look
     */
    void run(boolean missedEvents);
}
