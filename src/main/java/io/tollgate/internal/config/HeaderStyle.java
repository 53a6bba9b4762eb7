package io.tollgate.internal.config;

/** Which rate-limit response headers to send. */
public enum HeaderStyle {
    /** {@code RateLimit-Policy} and {@code RateLimit} structured fields (draft-ietf-httpapi-ratelimit-headers). */
    IETF,
    /** {@code RateLimit-Limit}, {@code RateLimit-Remaining}, {@code RateLimit-Reset} (earlier drafts). */
    LEGACY,
    /** {@code X-RateLimit-Limit}, {@code X-RateLimit-Remaining}, {@code X-RateLimit-Reset}. */
    X_RATELIMIT,
    /** No rate-limit headers (429 responses still carry {@code Retry-After}). */
    NONE
}
