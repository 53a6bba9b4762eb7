/**
 * CDI glue: the portable extension that reads and validates configuration at deployment and
 * opens the store, the {@code @RateLimited} interceptor, and the {@code RateLimiter} bean.
 * Internal: no API guarantee.
 */
package io.tollgate.internal.cdi;
