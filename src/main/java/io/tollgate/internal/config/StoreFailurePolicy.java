package io.tollgate.internal.config;

/** What a rule answers when the store fails or does not answer within the timeout. */
public enum StoreFailurePolicy {
    /** Fail open: let the request through, uncharged. */
    ALLOW,
    /** Fail closed: deny the request. */
    DENY
}
