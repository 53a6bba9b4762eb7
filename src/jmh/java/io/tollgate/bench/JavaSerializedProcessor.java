package io.tollgate.bench;

import com.hazelcast.map.EntryProcessor;
import com.hazelcast.map.ExtendedMapEntry;
import io.tollgate.internal.core.Clock;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.internal.hazelcast.OutcomeWire;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The same decision as Tollgate's processor, but sent with Java serialization: the baseline the
 * serialization benchmark compares against. Not used by Tollgate.
 */
final class JavaSerializedProcessor implements EntryProcessor<String, long[], long[]> {

    private static final long serialVersionUID = 1L;

    private final long[] spec;
    private final long cost;
    private transient long[] newState;
    private transient long ttlMillis;

    JavaSerializedProcessor(TokenBucket bucket, long cost) {
        this.spec = bucket.spec();
        this.cost = cost;
    }

    @Override
    public long[] process(Map.Entry<String, long[]> entry) {
        Outcome outcome = TokenBucket.fromSpec(spec).tryConsume(entry.getValue(), cost, Clock.SYSTEM.nowMicros());
        newState = outcome.newState();
        if (newState != null) {
            ttlMillis = TimeUnit.MICROSECONDS.toMillis(outcome.fullAfterMicros()) + 2_000;
            ((ExtendedMapEntry<String, long[]>) entry).setValue(newState, ttlMillis, TimeUnit.MILLISECONDS);
        }
        return OutcomeWire.of(outcome);
    }

    @Override
    public EntryProcessor<String, long[], long[]> getBackupProcessor() {
        return newState == null ? null : new Backup(newState, ttlMillis);
    }

    static final class Backup implements EntryProcessor<String, long[], long[]> {
        private static final long serialVersionUID = 1L;
        private final long[] state;
        private final long ttlMillis;

        Backup(long[] state, long ttlMillis) {
            this.state = state;
            this.ttlMillis = ttlMillis;
        }

        @Override
        public long[] process(Map.Entry<String, long[]> entry) {
            ((ExtendedMapEntry<String, long[]>) entry).setValue(state, ttlMillis, TimeUnit.MILLISECONDS);
            return null;
        }

        @Override
        public EntryProcessor<String, long[], long[]> getBackupProcessor() {
            return null;
        }
    }
}
