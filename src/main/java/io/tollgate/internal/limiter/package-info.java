/**
 * The engine: applies rules to keys and requests over a {@link io.tollgate.internal.store.BucketStore},
 * with the store timeout, the failure policy and shadow mode. Framework-free. Internal: no API guarantee.
 */
package io.tollgate.internal.limiter;
