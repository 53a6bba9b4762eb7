package io.tollgate.internal.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.hazelcast.internal.nio.BufferObjectDataOutput;
import com.hazelcast.internal.serialization.InternalSerializationService;
import com.hazelcast.internal.serialization.impl.DefaultSerializationServiceBuilder;
import com.hazelcast.internal.serialization.impl.HeapData;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.DataSerializable;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.TokenBucket;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Crafted bytes through Hazelcast's own serialization service, in both forms (by type id and by
 * class name): each version reads back what it wrote, and whatever Tollgate could not have written
 * (a newer version, an unbounded length, a value outside a limit's bounds, a cut-off stream) is an
 * {@code IOException} from {@code readData} that says what is wrong, before anything is allocated or
 * decided.
 */
@Tag("hazelcast")
class WireFormatTest {

    private static final long DEADLINE = 1_800_000_000_000L;
    private static final TokenBucket BUCKET = TokenBucket.of(Limit.of(10, 1, Duration.ofHours(1)), Limit.of(100, 10, Duration.ofSeconds(1)));
    private static final long[] SPEC = BUCKET.spec();
    private static final long[] STATE = {1_700_000_000_000_000L, 360_000_000, 3_600_000_000L, 100_000, 9_000_000};

    private final InternalSerializationService service = new DefaultSerializationServiceBuilder()
            .addDataSerializableFactory(Serialization.FACTORY_ID, new io.tollgate.hazelcast.TollgateSerialization()).build();

    @AfterEach
    void dispose() {
        service.dispose();
    }

    /** Writes a payload of its own in place of what a Tollgate object writes. */
    interface Payload {
        void write(ObjectDataOutput out) throws IOException;
    }

    @ParameterizedTest(name = "identified: {0}")
    @ValueSource(booleans = {true, false})
    void everyVersionReadsBackWhatItWroteAndVersionOneStartsWithItsMarker(boolean identified) throws IOException {
        for (int version : new int[] {Serialization.WIRE_V0, Serialization.WIRE_V1}) {
            for (Object written : List.of(BucketProcessor.create(BUCKET, 3, DEADLINE, identified, version),
                    BatchProcessor.create(BUCKET, new long[] {1, 0, 10}, new long[] {DEADLINE, 0, DEADLINE + 1}, identified, version),
                    StateBackup.create(STATE, 4_000, identified, version))) {
                byte[] bytes = service.toData(written).toByteArray();
                Object read = service.toObject(new HeapData(bytes));
                assertThat(read.getClass()).isSameAs(written.getClass());
                assertThat(service.toData(read).toByteArray()).isEqualTo(bytes);
                int head = payload(written)[0] << 24 | (payload(written)[1] & 0xff) << 16 | (payload(written)[2] & 0xff) << 8
                        | payload(written)[3] & 0xff;
                assertThat(head).as("the first int of %s in version %d", written.getClass().getName(), version)
                        .isEqualTo(version == 0 ? (written instanceof StateBackup ? STATE.length : SPEC.length) : -2);
            }
        }
        // in version 0 a batch carries one deadline, its earliest request's, as Tollgate 0.1 wrote it
        BatchProcessor batch = BatchProcessor.create(BUCKET, new long[] {1, 2}, new long[] {DEADLINE + 7, DEADLINE}, identified,
                Serialization.WIRE_V0);
        BufferObjectDataOutput expected = service.createObjectDataOutput();
        expected.writeLongArray(SPEC);
        expected.writeLong(DEADLINE);
        expected.writeLongArray(new long[] {1, 2});
        assertThat(payload(batch)).isEqualTo(expected.toByteArray());
    }

    @ParameterizedTest(name = "identified: {0}")
    @ValueSource(booleans = {true, false})
    void aNewerVersionIsRefusedNeverMisread(boolean identified) {
        Object processor = BucketProcessor.create(BUCKET, 3, DEADLINE, identified, Serialization.WIRE_V1);
        assertRefused(processor, out -> {
            out.writeInt(-5);
            out.writeLong(DEADLINE);
            out.writeLong(3);
            out.writeLongArray(SPEC);
        }, "Tollgate's BucketProcessor in wire version 4, newer than this member reads (0 to 3): run a Tollgate on this member "
                + "at least as new as the sender's");
        assertRefused(processor, out -> out.writeInt(Integer.MIN_VALUE), "Tollgate's BucketProcessor in wire version 2147483647, newer");
        assertRefused(StateBackup.create(STATE, 4_000, identified, 1), out -> out.writeInt(-5), "Tollgate's StateBackup in wire version 4");
        Object refund = RefundProcessor.create(BUCKET, 2, identified);
        assertRefused(refund, out -> out.writeInt(-2), "Tollgate's RefundProcessor in wire version 1, which has no refunds");
        assertRefused(refund, out -> {
            out.writeInt(-3);
            out.writeLong(0);
            out.writeLongArray(SPEC);
        }, "Tollgate's RefundProcessor: a refund of 0 tokens");
        Object retain = RetainProcessor.create(BUCKET, "search", java.util.Set.of("search:acme"), identified);
        assertRefused(retain, out -> out.writeInt(-3), "Tollgate's RetainProcessor in wire version 2, which has no such processor");
        assertRefused(retain, out -> {
            out.writeInt(-4);
            out.writeString("search");
            out.writeInt(Integer.MAX_VALUE);
        }, "Tollgate's RetainProcessor: 2147483647 keys to leave out, expected 0 to 1000000");
        assertRefused(BatchProcessor.create(BUCKET, new long[] {1}, new long[] {0}, identified, 1), out -> out.writeInt(-2 - 1000),
                "Tollgate's BatchProcessor in wire version 1001");
    }

    @ParameterizedTest(name = "identified: {0}")
    @ValueSource(booleans = {true, false})
    void everyLengthIsBoundedBeforeAnythingIsAllocated(boolean identified) {
        Object single = BucketProcessor.create(BUCKET, 3, DEADLINE, identified, Serialization.WIRE_V1);
        Object batch = BatchProcessor.create(BUCKET, new long[] {1}, new long[] {0}, identified, Serialization.WIRE_V1);
        Object backup = StateBackup.create(STATE, 4_000, identified, Serialization.WIRE_V1);
        // version 0: the first int is the length of the spec (or state)
        assertRefused(single, out -> out.writeInt(Integer.MAX_VALUE), "Tollgate's BucketProcessor: a spec of 2147483647 longs, expected 1 to 48");
        assertRefused(single, out -> out.writeInt(-1), "Tollgate's BucketProcessor: a spec of -1 longs, expected 1 to 48");
        assertRefused(single, out -> out.writeInt(49), "Tollgate's BucketProcessor: a spec of 49 longs, expected 1 to 48");
        assertRefused(backup, out -> out.writeInt(Integer.MAX_VALUE), "Tollgate's StateBackup: a state of 2147483647 longs, expected 1 to 33");
        assertRefused(batch, out -> {
            out.writeLongArray(SPEC);
            out.writeLong(DEADLINE);
            out.writeInt(Integer.MAX_VALUE);
        }, "Tollgate's BatchProcessor: a batch of 2147483647 longs, expected 1 to 512");
        // version 1
        assertRefused(single, out -> {
            out.writeInt(-2);
            out.writeLong(DEADLINE);
            out.writeLong(3);
            out.writeInt(Integer.MAX_VALUE);
        }, "Tollgate's BucketProcessor: a spec of 2147483647 longs, expected 1 to 48");
        assertRefused(backup, out -> {
            out.writeInt(-2);
            out.writeLong(4_000);
            out.writeInt(34);
        }, "Tollgate's StateBackup: a state of 34 longs, expected 1 to 33");
        for (int n : new int[] {Integer.MAX_VALUE, 513, 0, -1}) {
            assertRefused(batch, out -> {
                out.writeInt(-2);
                out.writeLong(DEADLINE);
                out.writeLongArray(SPEC);
                out.writeInt(n);
            }, "Tollgate's BatchProcessor: a batch of " + n + " requests, expected 1 to 512");
        }
    }

    @ParameterizedTest(name = "identified: {0}")
    @ValueSource(booleans = {true, false})
    void valuesNoTollgateWritesAreRefused(boolean identified) {
        Object single = BucketProcessor.create(BUCKET, 3, DEADLINE, identified, Serialization.WIRE_V1);
        Object batch = BatchProcessor.create(BUCKET, new long[] {1}, new long[] {0}, identified, Serialization.WIRE_V1);
        Object backup = StateBackup.create(STATE, 4_000, identified, Serialization.WIRE_V1);
        assertRefused(single, v1(DEADLINE, 11, SPEC), "Tollgate's BucketProcessor: a cost of 11, outside [0, 10]");
        assertRefused(single, v1(DEADLINE, -1, SPEC), "Tollgate's BucketProcessor: a cost of -1, outside [0, 10]");
        assertRefused(single, v1(-5, 1, SPEC), "Tollgate's BucketProcessor: a deadline of -5");
        long[] zeroCapacity = SPEC.clone();
        zeroCapacity[3] = 0;
        assertRefused(single, v1(DEADLINE, 1, zeroCapacity),
                "Tollgate's BucketProcessor: malformed bucket spec: limit 1 has a capacity of 0 units, outside [1, 2^61]");
        long[] huge = SPEC.clone();
        huge[0] = Long.MAX_VALUE;
        assertRefused(single, v1(DEADLINE, 1, huge), "Tollgate's BucketProcessor: malformed bucket spec: limit 0 has a capacity of "
                + Long.MAX_VALUE + " units, outside [1, 2^61]");
        assertRefused(single, v1(DEADLINE, 1, Arrays.copyOf(SPEC, 4)),
                "Tollgate's BucketProcessor: malformed bucket spec of 4 longs: expected 1 to 16 limits of 3 longs each");
        assertRefused(batch, out -> {
            out.writeInt(-2);
            out.writeLong(DEADLINE);
            out.writeLongArray(SPEC);
            out.writeInt(2);
            out.writeLong(1);
            out.writeLong(DEADLINE);
            out.writeLong(12);
            out.writeLong(DEADLINE);
        }, "Tollgate's BatchProcessor: a cost of 12, outside [0, 10]");
        assertRefused(batch, out -> {
            out.writeInt(-2);
            out.writeLong(DEADLINE);
            out.writeLongArray(SPEC);
            out.writeInt(1);
            out.writeLong(1);
            out.writeLong(-1);
        }, "Tollgate's BatchProcessor: a deadline of -1");
        assertRefused(backup, out -> {
            out.writeInt(-2);
            out.writeLong(4_000);
            out.writeLongArray(new long[] {STATE[0], 0, 5});
        }, "Tollgate's StateBackup: malformed bucket state: limit 0 has 0 units per token, outside [1, 2^61]");
        assertRefused(backup, out -> {
            out.writeInt(-2);
            out.writeLong(4_000);
            out.writeLongArray(new long[] {STATE[0], 1, 5, 1});
        }, "Tollgate's StateBackup: malformed bucket state of 4 longs");
        assertRefused(backup, out -> {
            out.writeInt(-2);
            out.writeLong(0);
            out.writeLongArray(STATE);
        }, "Tollgate's StateBackup: a time-to-live of 0 ms");
        assertRefused(backup, out -> {
            out.writeLongArray(new long[] {-7, 1, 5});
            out.writeLong(4_000);
        }, "Tollgate's StateBackup: malformed bucket state: a timestamp of -7 µs");
    }

    @ParameterizedTest(name = "identified: {0}")
    @ValueSource(booleans = {true, false})
    void aStreamCutShortIsRefused(boolean identified) throws IOException {
        Object single = BucketProcessor.create(BUCKET, 3, DEADLINE, identified, Serialization.WIRE_V1);
        byte[] whole = payload(single);
        for (int length : new int[] {0, 3, 12, whole.length - 1}) {
            Throwable failure = catchThrowable(() -> read(single, out -> out.write(Arrays.copyOf(whole, length))));
            assertThat(ioCause(failure)).as("cut at %d of %d bytes", length, whole.length).isNotNull();
        }
    }

    @ParameterizedTest(name = "identified: {0}")
    @ValueSource(booleans = {true, false})
    void theKeepingOfBucketsReadsBackWhatItWroteInVersionThree(boolean identified) throws IOException {
        for (Object written : List.of(RetainProcessor.create(BUCKET, "search", java.util.Set.of("search:acme"), identified),
                RetainProcessor.create(BUCKET, null, java.util.Set.of(), identified))) {
            byte[] bytes = service.toData(written).toByteArray();
            Object read = service.toObject(new HeapData(bytes));
            assertThat(read.getClass()).isSameAs(written.getClass());
            assertThat(service.toData(read).toByteArray()).isEqualTo(bytes);
            assertThat(payload(written)[3]).as("the marker of version 3").isEqualTo((byte) -4);
        }
    }

    @Test
    void versionOneCostsFourBytesMoreThanVersionZero() throws IOException {
        int v0 = service.toData(BucketProcessor.create(BUCKET, 3, DEADLINE, true, Serialization.WIRE_V0)).totalSize();
        int v1 = service.toData(BucketProcessor.create(BUCKET, 3, DEADLINE, true, Serialization.WIRE_V1)).totalSize();
        System.out.printf("wire: one decision (2 limits) by type id is %d bytes in version 0, %d in version 1%n", v0, v1);
        assertThat(v1 - v0).isEqualTo(4);
    }

    private static Payload v1(long deadline, long cost, long[] spec) {
        return out -> {
            out.writeInt(-2);
            out.writeLong(deadline);
            out.writeLong(cost);
            out.writeLongArray(spec);
        };
    }

    private void assertRefused(Object template, Payload payload, String message) {
        Throwable failure = catchThrowable(() -> read(template, payload));
        IOException cause = ioCause(failure);
        assertThat(cause).as("an IOException from readData, in %s", failure).isNotNull();
        assertThat(cause.getMessage()).startsWith(message);
    }

    private static IOException ioCause(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof IOException) {
                return (IOException) t;
            }
        }
        return null;
    }

    /** Reads {@code template}'s type (by id or by class name, as it travels) from {@code payload} in place of its fields. */
    private Object read(Object template, Payload payload) throws IOException {
        byte[] whole = service.toData(template).toByteArray();
        int header = whole.length - payload(template).length;
        BufferObjectDataOutput crafted = service.createObjectDataOutput();
        payload.write(crafted);
        byte[] fields = crafted.toByteArray();
        byte[] bytes = Arrays.copyOf(whole, header + fields.length);
        System.arraycopy(fields, 0, bytes, header, fields.length);
        return service.toObject(new HeapData(bytes));
    }

    private byte[] payload(Object object) throws IOException {
        BufferObjectDataOutput out = service.createObjectDataOutput();
        ((DataSerializable) object).writeData(out);
        return out.toByteArray();
    }
}
