package io.tollgate.testing;

import com.hazelcast.map.ExtendedMapEntry;
import java.util.concurrent.TimeUnit;

/** A map entry an entry processor can run on outside a member, recording what it writes. */
public final class TestEntry implements ExtendedMapEntry<String, long[]> {

    private final String key;
    private long[] value;
    private long ttlMillis = -1;
    private int writes;

    public TestEntry(String key, long[] value) {
        this.key = key;
        this.value = value;
    }

    @Override
    public String getKey() {
        return key;
    }

    @Override
    public long[] getValue() {
        return value;
    }

    @Override
    public long[] setValue(long[] value) {
        return setValue(value, -1, TimeUnit.MILLISECONDS);
    }

    @Override
    public long[] setValue(long[] value, long ttl, TimeUnit unit) {
        long[] old = this.value;
        this.value = value;
        this.ttlMillis = ttl < 0 ? ttl : unit.toMillis(ttl);
        writes++;
        return old;
    }

    @Override
    public long[] setValueWithoutChangingExpiryTime(long[] value) {
        long[] old = this.value;
        this.value = value;
        writes++;
        return old;
    }

    /** @return the time-to-live of the last write, in ms (-1 if none was given) */
    public long ttlMillis() {
        return ttlMillis;
    }

    /** @return how many times the value was written */
    public int writes() {
        return writes;
    }
}
