/**
 * Tollgate's public API: the {@code @RateLimited} interceptor binding, the programmatic
 * {@code RateLimiter}, and the {@link io.tollgate.Decision} every check returns.
 *
 * <p>Everything under {@code io.tollgate.internal} is implementation with no compatibility
 * guarantee.
 */
package io.tollgate;
