/**
 * Tollgate running inside one application, free of any framework: the resolved configuration with the
 * open store and the engine ({@link io.tollgate.internal.runtime.Tollgate}), what applies to each method
 * ({@link io.tollgate.internal.runtime.Binding}) and what is known of each HTTP request
 * ({@link io.tollgate.internal.runtime.RequestRecord}). The CDI and JAX-RS glue create and use them.
 * Internal: no API guarantee.
 */
package io.tollgate.internal.runtime;
