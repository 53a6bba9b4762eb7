package io.tollgate.internal.config;

/**
 * The {@code tollgate.cluster.*} properties: how many members Tollgate's cluster should have.
 *
 * @param minMembers fewer members than this, and Tollgate's readiness check is down and a warning says so
 * @param quorum     fewer members than this, and every decision is answered by the rule's {@code on-store-failure}
 *                   instead of by this side's copy of the buckets; 0 for no quorum
 */
public record ClusterSettings(int minMembers, int quorum) {

    /** One member is enough, and there is no quorum: what a configuration that sets neither gets. */
    public static final ClusterSettings DEFAULT = new ClusterSettings(1, 0);

    /** @return whether {@code members} members are fewer than the quorum */
    public boolean belowQuorum(int members) {
        return members < quorum;
    }
}
