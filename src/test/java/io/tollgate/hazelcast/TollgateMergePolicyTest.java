package io.tollgate.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.spi.merge.MergingValue;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.TokenBucket;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The bucket map's merge policy, given the values two sides of a split kept, as Hazelcast hands them over. */
class TollgateMergePolicyTest {

    private static final long T0 = 1_700_000_000_000_000L;
    private static final TokenBucket BUCKET = TokenBucket.of(Limit.of(10, 10, Duration.ofSeconds(1)));
    private final TollgateMergePolicy policy = new TollgateMergePolicy();

    @Test
    void aBucketBothSidesKeptGetsTheFewerTokensAtTheLaterTime() {
        long[] merging = drained(T0, 9);          // 1 token left
        long[] existing = drained(T0 + 50_000, 4); // later, 6 left
        long[] merged = (long[]) policy.merge(value(merging), value(existing));
        assertThat(BUCKET.levels(merged, T0 + 50_000).get(0).tokens()).isEqualTo(1);
        assertThat(merged[0]).isEqualTo(T0 + 50_000);
    }

    @Test
    void aBucketOnlyTheMergingSideKeptIsTakenFromIt() {
        long[] merging = drained(T0, 9);
        assertThat(policy.merge(value(merging), null)).isSameAs(merging);
    }

    @Test
    void aBucketStateWinsOverAnythingElseAndOtherValuesAreTheMergingSides() {
        long[] existing = drained(T0, 3);
        assertThat(policy.merge(value("not a bucket"), value(existing))).isSameAs(existing);
        assertThat(policy.merge(value("rule change of the merging side"), value("the other"))).isEqualTo("rule change of the merging side");
    }

    private static long[] drained(long now, int requests) {
        long[] state = null;
        for (int i = 0; i < requests; i++) {
            long[] next = BUCKET.tryConsume(state, 1, now).newState();
            state = next != null ? next : state;
        }
        return state;
    }

    private static MergingValue<Object> value(Object value) {
        return new Value(value);
    }

    /** A side's value, read as Hazelcast 5.3 and 5.7 read it. */
    private static final class Value implements MergingValue<Object> {
        private final Object value;

        Value(Object value) {
            this.value = value;
        }

        @Override
        public Object getValue() {
            return value;
        }

        @Override
        public Object getRawValue() {
            return value;
        }

        /** What Hazelcast 5.7 adds to the interface (5.3.8, compiled against, lacks it). */
        public Object getDeserializedValue() {
            return value;
        }
    }
}
