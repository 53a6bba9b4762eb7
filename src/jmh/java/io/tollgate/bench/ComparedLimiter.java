package io.tollgate.bench;

/**
 * One rate limiter under comparison, bound to one limit and one calling instance (a member, a
 * client, or none). Every implementation decides the same continuous token bucket.
 */
interface ComparedLimiter extends AutoCloseable {

    /** @return whether {@code cost} tokens were granted from the bucket at {@code key} */
    boolean tryAcquire(String key, long cost) throws Exception;

    /**
     * @param storeKey a bucket's key as the map keeps it (the benchmarks place keys on members by it)
     * @return the key to give {@link #tryAcquire} for that bucket: {@code storeKey} itself, unless the limiter derives
     *         the map's key from its caller's, as Tollgate's engine does
     */
    default String callerKey(String storeKey) {
        return storeKey;
    }

    /** @return decisions that failed and were answered by the fail-open policy instead (0 for most) */
    default long failures() {
        return 0;
    }

    /** @return what {@link #failures()} were */
    default String describeFailures() {
        return failures() + " failed";
    }

    @Override
    default void close() {
    }
}
