package io.tollgate.internal.config;

import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.TokenBucket;
import java.util.List;

/**
 * The limits one bucket is decided by, with the bucket definition they make: a rule's own, or a key's override.
 *
 * @param limits the limits, in order (the headers name the second {@code "rule.1"})
 * @param bucket the definition sent with each decision
 */
public record BucketLimits(List<Limit> limits, TokenBucket bucket) {

    /** @return the limits and their bucket */
    static BucketLimits of(List<Limit> limits) {
        List<Limit> copy = List.copyOf(limits);
        return new BucketLimits(copy, TokenBucket.of(copy));
    }

    /** @return the limits as {@code limits} writes them: {@code 10/1s burst 20, 1000/1h burst 1000} */
    public String text() {
        StringBuilder text = new StringBuilder();
        for (Limit limit : limits) {
            text.append(text.length() == 0 ? "" : ", ").append(limit);
        }
        return text.toString();
    }
}
