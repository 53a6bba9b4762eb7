/**
 * The HTTP contract, framework-free: rate-limit headers, {@code Retry-After} with per-client
 * jitter, and RFC 9457 problem bodies. Internal: no API guarantee.
 */
package io.tollgate.internal.http;
