/**
 * JAX-RS glue: the {@code DynamicFeature} that binds a pre-configured request filter to every
 * resource method, the filters, and the exception mappers. Internal: no API guarantee.
 */
package io.tollgate.internal.jaxrs;
