/**
 * Tollgate's public API: the {@code @RateLimited} interceptor binding, the programmatic
 * {@code RateLimiter}, the {@link io.tollgate.Decision} every check returns, the refusals it throws
 * ({@link io.tollgate.RateLimitRefusedException} and its subclasses), and the CDI events
 * ({@link io.tollgate.RateLimitEvent}) Tollgate fires to the application's observers.
 *
 * <p><b>Names.</b> One word per concept, the same in records, JSON bodies, properties and metrics: a <em>limit</em> is
 * a rate with its burst ({@code <rate> [burst <n>]}: {@link io.tollgate.RuleDescription.Limit}, {@code max-limit}),
 * and a <em>burst</em> is a limit's capacity in tokens ({@link io.tollgate.Decision#burst()},
 * {@link io.tollgate.BucketStatus.LimitStatus#burst()}, {@code "burst"} in the 429 body and the admin resource's).
 * Java names and JSON members are camelCase ({@code keyHash}, {@code retryAfter}); properties are kebab-case
 * ({@code tollgate.near-limit}); a metric has one name in MicroProfile Metrics and OpenTelemetry, dot-separated with
 * an underscore inside a word group ({@code tollgate.near_limit}, {@code tollgate.decision.duration}). An
 * OpenTelemetry attribute is its MicroProfile Metrics tag under {@code tollgate.} ({@code rule} and
 * {@code tollgate.rule}), but where OpenTelemetry's conventions name it ({@code error.type}, the tag {@code cause}).
 *
 * <p>Everything under {@code io.tollgate.internal} is implementation with no compatibility
 * guarantee.
 */
package io.tollgate;
