package io.tollgate.internal.store;

/**
 * A bucket as its store holds it at a moment: read, not decided on.
 *
 * @param state      the stored state, {@code null} for none (a full bucket)
 * @param nowMicros  the store's clock when it was read, µs since the epoch
 */
public record BucketReading(long[] state, long nowMicros) {
}
