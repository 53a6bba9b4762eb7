package io.tollgate.internal.hazelcast;

import com.hazelcast.map.EntryProcessor;
import io.tollgate.internal.core.TokenBucket;

/** Creates Tollgate's entry processor, for code outside this package (benchmarks). */
public final class BucketProcessors {

    private BucketProcessors() {
    }

    /** @return the processor that takes {@code cost} from a bucket of {@code bucket}'s limits */
    public static EntryProcessor<String, long[], long[]> create(TokenBucket bucket, long cost, boolean identified) {
        return BucketProcessor.create(bucket, cost, 0, identified, Serialization.WIRE_VERSION);
    }
}
