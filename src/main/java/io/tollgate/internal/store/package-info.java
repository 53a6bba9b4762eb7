/**
 * Where bucket state lives: the {@link io.tollgate.internal.store.BucketStore} contract and the
 * in-memory store. Internal: no API guarantee.
 */
package io.tollgate.internal.store;
