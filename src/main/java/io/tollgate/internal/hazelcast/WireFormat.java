package io.tollgate.internal.hazelcast;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.internal.store.CoalescingStore;
import java.io.IOException;

/**
 * Writes and reads the version marker of Tollgate's wire form ({@link Serialization}), and
 * checks what is read: every length is bounded before anything is allocated, every value is one
 * Tollgate could have written, and anything else is an {@link IOException} that says what is wrong.
 *
 * <p>The layouts ({@code long[]} is its {@code int} length, then the longs):
 * <pre>
 * BucketProcessor  v0: spec long[], deadline, cost
 *                  v1: -2, deadline, cost, spec long[]
 * BatchProcessor   v0: spec long[], deadline, costs long[]
 *                  v1: -2, latest deadline, spec long[], int n, n x (cost, deadline)
 * StateBackup      v0: state long[], ttlMillis
 *                  v1: -2, ttlMillis, state long[]
 * RefundProcessor  v2: -3, tokens, spec long[]
 * RetainProcessor  v3: -4, rule string (null for one key), int n, n x key string, spec long[]
 * </pre>
 * Version 2 writes the others as version 1 does, with its own marker ({@code -3}): it adds the refund, which
 * no earlier member can read (its type is unknown there, so a refund sent to one fails on arrival and changes
 * nothing). Version 3 does the same with the keeping of buckets ({@code -4}).
 * Deadlines are cluster time in milliseconds, 0 for none. Version 1 puts a long right after the
 * marker on purpose: a version-0 member takes the marker for the length of an empty array and reads
 * that long where it expects its deadline (or the time-to-live), then stops at the empty spec and
 * refuses the decision, without writing and without allocating anything large; for a backup it
 * stores an empty state with the right time-to-live, which a version-1 owner refuses to decide from
 * until it expires. {@link WireVersions} keeps version 1 away from such members; this only matters
 * in the moment between an old member joining and the others noticing.
 */
final class WireFormat {

    /** Longest spec: three longs per limit. */
    static final int MAX_SPEC = 3 * TokenBucket.MAX_LIMITS;
    /** Longest state: a timestamp and two longs per limit. */
    static final int MAX_STATE = 1 + 2 * TokenBucket.MAX_LIMITS;
    /** Most requests in one batch. */
    static final int MAX_BATCH = CoalescingStore.MAX_BATCH;

    private WireFormat() {
    }

    /** Writes the marker of {@code version}; version 0 has none. */
    static void writeVersion(ObjectDataOutput out, int version) throws IOException {
        if (version != Serialization.WIRE_V0) {
            out.writeInt(-1 - version);
        }
    }

    /**
     * @param head the first {@code int} of an object: a version marker, or in version 0 the length of its first array
     * @return the wire version the object is written in
     * @throws IOException for a version newer than this code reads
     */
    static int version(int head, String what) throws IOException {
        if (head >= -1) {
            return Serialization.WIRE_V0;
        }
        long version = -1L - head;
        if (version > Serialization.WIRE_VERSION) {
            throw new IOException(what + " in wire version " + version + ", newer than this member reads (0 to "
                    + Serialization.WIRE_VERSION + "): run a Tollgate on this member at least as new as the sender's");
        }
        return (int) version;
    }

    /** Reads the {@code length} longs of an array whose length was read already, if it is within {@code [1, max]}. */
    static long[] readLongs(ObjectDataInput in, int length, int max, String what) throws IOException {
        if (length < 1 || length > max) {
            throw new IOException(what + " of " + length + " longs, expected 1 to " + max);
        }
        long[] values = new long[length];
        for (int i = 0; i < length; i++) {
            values[i] = in.readLong();
        }
        return values;
    }

    /** Reads an array written by {@code writeLongArray}, if its length is within {@code [1, max]}. */
    static long[] readLongArray(ObjectDataInput in, int max, String what) throws IOException {
        return readLongs(in, in.readInt(), max, what);
    }

    /** @return the rule's limits read from {@code spec}, if a {@code Limit} could have made them */
    static TokenBucket bucket(long[] spec, String what) throws IOException {
        try {
            return TokenBucket.fromSpec(spec);
        } catch (IllegalArgumentException e) {
            throw new IOException(what + ": " + e.getMessage(), e);
        }
    }

    /** @return {@code cost}, if the rule could grant it */
    static long cost(TokenBucket bucket, long cost, String what) throws IOException {
        if (cost < 0 || cost > bucket.maxCost()) {
            throw new IOException(what + ": a cost of " + cost + ", outside [0, " + bucket.maxCost() + "]");
        }
        return cost;
    }

    /** @return {@code deadline}, if it is a cluster time or 0 */
    static long deadline(long deadline, String what) throws IOException {
        if (deadline < 0) {
            throw new IOException(what + ": a deadline of " + deadline);
        }
        return deadline;
    }

    /** @return {@code state}, if it has the layout of a stored state */
    static long[] state(long[] state, String what) throws IOException {
        try {
            TokenBucket.checkState(state);
        } catch (IllegalArgumentException e) {
            throw new IOException(what + ": " + e.getMessage(), e);
        }
        return state;
    }

    /** @return {@code ttlMillis}, if positive */
    static long ttl(long ttlMillis, String what) throws IOException {
        if (ttlMillis < 1) {
            throw new IOException(what + ": a time-to-live of " + ttlMillis + " ms");
        }
        return ttlMillis;
    }
}
