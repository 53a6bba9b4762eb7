package io.tollgate.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.testing.TestClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class InMemoryBucketStoreTest extends BucketStoreContract {

    private final TestClock clock = TestClock.atRealTime();
    private final InMemoryBucketStore store = new InMemoryBucketStore(clock, 10_000);

    @Override
    protected BucketStore store() {
        return store;
    }

    @Override
    protected TestClock clock() {
        return clock;
    }

    @Test
    void dropsBucketsOnceTheyAreFullAgain() {
        TokenBucket bucket = TokenBucket.of(Limit.of(5, 5, Duration.ofSeconds(1)));
        for (int i = 0; i < 100; i++) {
            acquire(key("idle-" + i), bucket, 1 + i % 5);
        }
        assertThat(store.size()).isEqualTo(100);
        clock.advance(Duration.ofMillis(999));
        store.sweep(clock.nowMicros());
        assertThat(store.size()).isEqualTo(20); // those that took 5 tokens are 1 ms short of full
        clock.advance(Duration.ofMillis(1));
        store.sweep(clock.nowMicros());
        assertThat(store.size()).isZero();
    }

    @Test
    void aResetOfABucketFullAgainFindsNone() {
        String key = key("expired");
        TokenBucket bucket = TokenBucket.of(Limit.of(5, 5, Duration.ofSeconds(1)));
        acquire(key, bucket, 5);
        clock.advance(Duration.ofSeconds(1));
        assertThat(store.size()).as("not swept yet").isEqualTo(1);
        assertThat(store.reset(key)).isFalse();
        assertThat(store.size()).isZero();
    }

    @Test
    void holdsNoMoreThanItsBound() {
        InMemoryBucketStore small = new InMemoryBucketStore(clock, 50);
        TokenBucket bucket = TokenBucket.of(Limit.of(5, 1, Duration.ofHours(1)));
        for (int i = 0; i < 1_000; i++) {
            small.acquireNow(key("flood-" + i), bucket, 1);
            assertThat(small.size()).isLessThanOrEqualTo(50);
        }
        // a key still present keeps its state
        String active = key("flood-999");
        assertThat(small.acquireNow(active, bucket, 1).remaining()).isEqualTo(3);
    }
}
