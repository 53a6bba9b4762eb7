package io.tollgate.internal.config;

/** How a rule acts on a denial. */
public enum Mode {
    /** Deny: 429, or {@code RateLimitExceededException}. */
    ENFORCE,
    /** Decide, count and log, but let the request through. */
    SHADOW
}
