package io.tollgate.internal.core;

/**
 * Where one limit of a bucket stands at a moment, as {@link TokenBucket#levels} reads it.
 *
 * @param tokens          whole tokens left
 * @param burst           the limit's capacity in tokens
 * @param untilFullMicros µs until the limit is full again; 0 when it is full
 */
public record LimitLevel(long tokens, long burst, long untilFullMicros) {
}
