package io.tollgate.hazelcast;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.spi.merge.MergingValue;
import com.hazelcast.spi.merge.SplitBrainMergePolicy;
import io.tollgate.internal.core.BucketMerge;

/**
 * The merge policy of Tollgate's bucket map: when the two sides of a split cluster meet again, a bucket that both
 * sides kept becomes, per limit, the fewer tokens of the two at the later of their two times, so that the healed
 * cluster never holds more tokens than either side did (a bucket drained on both sides stays drained). A bucket only
 * one side kept is taken from it (a missing bucket is a full one). Of a bucket state and anything else, the state
 * wins; of two values that are no bucket states (another map's), the merging side's.
 *
 * <p>Tollgate's embedded member uses it. On an external cluster, name it for the bucket map in the members'
 * configuration (they have Tollgate's jar already, for its entry processors):
 *
 * <pre>{@code
 * hazelcast:
 *   map:
 *     tollgate-buckets-*:
 *       merge-policy:
 *         class-name: io.tollgate.hazelcast.TollgateMergePolicy
 * }</pre>
 */
public final class TollgateMergePolicy implements SplitBrainMergePolicy<Object, MergingValue<Object>, Object> {

    @Override
    public Object merge(MergingValue<Object> merging, MergingValue<Object> existing) {
        if (existing == null) {
            return merging.getRawValue();
        }
        Object ours = existing.getValue();
        Object theirs = merging.getValue();
        if (ours instanceof long[] a && theirs instanceof long[] b) {
            return BucketMerge.merge(b, a);
        }
        return ours instanceof long[] ? existing.getRawValue() : merging.getRawValue();
    }

    @Override
    public void writeData(ObjectDataOutput out) {
        // no state
    }

    @Override
    public void readData(ObjectDataInput in) {
        // no state
    }
}
