/**
 * Tollgate's public API: the {@code @RateLimited} interceptor binding, the programmatic
 * {@code RateLimiter}, the {@link io.tollgate.Decision} every check returns, and the CDI events
 * ({@link io.tollgate.RateLimitEvent}) Tollgate fires to the application's observers.
 *
 * <p>Everything under {@code io.tollgate.internal} is implementation with no compatibility
 * guarantee.
 */
package io.tollgate;
