/**
 * The framework-free core: exact token-bucket arithmetic, limits and bucket state. No CDI,
 * JAX-RS or Hazelcast types appear here. Internal: no API guarantee.
 */
package io.tollgate.internal.core;
