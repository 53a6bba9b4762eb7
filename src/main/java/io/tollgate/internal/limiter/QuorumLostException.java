package io.tollgate.internal.limiter;

/** The store was not asked: its cluster has fewer members than {@code tollgate.cluster.quorum}. */
final class QuorumLostException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    QuorumLostException(int members, int quorum) {
        super("the store's cluster has " + members + " member(s), fewer than tollgate.cluster.quorum = " + quorum, null, false, false);
    }
}
