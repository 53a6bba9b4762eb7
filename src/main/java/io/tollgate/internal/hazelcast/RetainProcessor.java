package io.tollgate.internal.hazelcast;

import com.hazelcast.map.EntryProcessor;
import com.hazelcast.map.ExtendedMapEntry;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.core.TokenBucket;
import java.io.IOException;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Makes a stored bucket's time-to-live follow the limits now in force: on the member that holds it, on that
 * member's clock, the time until its state, read under these limits, is full again (plus the margin every write
 * has), with the state left as it is. A missing bucket stays missing; one full under these limits already keeps
 * its time-to-live. Sent for one key, or over the whole map for one rule's buckets (its ban counters and the keys
 * given as exceptions left out); it runs again on each backup, which holds the same state, so it is its own backup
 * processor. Exists from wire version 3 on, the only version it is written in ({@link WireFormat}).
 */
class RetainProcessor extends OwnerProcessor {

    private static final String WHAT = "Tollgate's RetainProcessor";
    /** The most keys a pass leaves out: a rule's overrides. */
    static final int MAX_EXCEPT = 1_000_000;

    /** The rule whose buckets a pass over the map keeps, or {@code null} for the one key it was sent to. */
    private String rule;
    private Set<String> except = Set.of();

    RetainProcessor() {
    }

    RetainProcessor(TokenBucket limits, String rule, Set<String> except) {
        super(limits, Serialization.WIRE_V3);
        this.rule = rule;
        this.except = except;
    }

    /**
     * @param rule   the rule whose buckets a pass over the map keeps, or {@code null} for a call to one key
     * @param except store keys the pass leaves alone
     */
    static RetainProcessor create(TokenBucket limits, String rule, Set<String> except, boolean identified) {
        return identified ? new Identified(limits, rule, except) : new RetainProcessor(limits, rule, except);
    }

    @Override
    public long[] process(Map.Entry<String, long[]> entry) {
        String key = entry.getKey();
        if (rule != null && (!BucketKeys.isClientBucketOf(key, rule) || except.contains(key))) {
            return null;
        }
        long[] state;
        try {
            state = storedState(entry);
        } catch (IllegalStateException e) {
            return null; // not Tollgate's: the next decision on it says so
        }
        long until = state == null ? 0 : bucket().untilFullMicros(state, now());
        if (until > 0) {
            long ttlMillis = TimeUnit.MICROSECONDS.toMillis(until) + TTL_MARGIN_MILLIS;
            ((ExtendedMapEntry<String, long[]>) entry).setValue(state, ttlMillis, TimeUnit.MILLISECONDS);
        }
        return null;
    }

    @Override
    public EntryProcessor<String, long[], long[]> getBackupProcessor() {
        return this;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        WireFormat.writeVersion(out, version());
        out.writeString(rule);
        out.writeInt(except.size());
        for (String key : except) {
            out.writeString(key);
        }
        out.writeLongArray(bucket().spec());
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        int version = WireFormat.version(in.readInt(), WHAT);
        if (version < Serialization.WIRE_V3) {
            throw new IOException(WHAT + " in wire version " + version + ", which has no such processor");
        }
        rule = in.readString();
        int count = in.readInt();
        if (count < 0 || count > MAX_EXCEPT) {
            throw new IOException(WHAT + ": " + count + " keys to leave out, expected 0 to " + MAX_EXCEPT);
        }
        Set<String> keys = new HashSet<>();
        for (int i = 0; i < count; i++) {
            keys.add(in.readString());
        }
        except = keys;
        read(WireFormat.bucket(WireFormat.readLongArray(in, WireFormat.MAX_SPEC, WHAT + ": a spec"), WHAT), version);
    }

    /** The same processor, read by type id where {@link Serialization} is registered. */
    static final class Identified extends RetainProcessor implements IdentifiedDataSerializable {

        Identified() {
        }

        Identified(TokenBucket limits, String rule, Set<String> except) {
            super(limits, rule, except);
        }

        @Override
        public int getFactoryId() {
            return Serialization.FACTORY_ID;
        }

        @Override
        public int getClassId() {
            return Serialization.RETAIN_PROCESSOR;
        }
    }
}
