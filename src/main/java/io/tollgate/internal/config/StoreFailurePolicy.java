package io.tollgate.internal.config;

/** What a rule answers when the store fails, does not answer within the timeout, or has lost its quorum. */
public enum StoreFailurePolicy {
    /**
     * Limit on this instance alone, at its share of the rule: every limit's burst and rate divided by the number of
     * instances last seen sharing the store, so that all of them together grant about the rule's bound.
     */
    LOCAL,
    /** Fail open: let the request through, uncharged. */
    ALLOW,
    /** Fail closed: deny the request. */
    DENY
}
