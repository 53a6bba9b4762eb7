/**
 * CDI glue: the portable extension that reads and validates configuration at deployment and
 * opens the store, the {@code @RateLimited} interceptor, the {@code RateLimiter} bean, and the CDI
 * events Tollgate fires to the application.
 * Internal: no API guarantee.
 */
package io.tollgate.internal.cdi;
