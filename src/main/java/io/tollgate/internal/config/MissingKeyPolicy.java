package io.tollgate.internal.config;

/** What a rule does with a request that lacks a part of its key (a header, a query parameter, a claim, the principal). */
public enum MissingKeyPolicy {
    /** The part counts as empty: every such request shares one bucket. */
    SHARED,
    /** The rule does not apply to the request. */
    SKIP,
    /** 400 (or, outside an HTTP request, an exception), nothing charged. */
    REJECT
}
