package io.tollgate.internal.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.internal.serialization.InternalSerializationService;
import com.hazelcast.internal.serialization.impl.DefaultSerializationServiceBuilder;
import com.hazelcast.internal.serialization.impl.HeapData;
import com.hazelcast.map.EntryProcessor;
import com.hazelcast.nio.serialization.DataSerializableFactory;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.testing.IsolatedTollgate;
import io.tollgate.testing.TestEntry;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.net.URLClassLoader;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What Tollgate at wire version 0 (the jar of commit 62cb7a6, in a class loader of its own) and this
 * code make of each other's bytes, through Hazelcast's own serialization, in both forms (by type id
 * and by class name): this code reads version 0 as the old code wrote it and writes it back byte for
 * byte, and the old code, handed version 1 by mistake, refuses it without deciding anything.
 */
@Tag("hazelcast")
class WireCompatibilityTest {

    private static final long DEADLINE = 1_800_000_000_000L;
    private static final long[] STATE = {1_700_000_000_000_000L, 360_000_000, 3_600_000_000L, 100_000, 9_000_000};
    /** The class the version-0 jar names its factory (the name Tollgate 0.1 configurations give). */
    private static final String LEGACY_FACTORY = "io.tollgate.internal.hazelcast.TollgateSerialization";

    private static URLClassLoader old;
    private static InternalSerializationService oldSide;
    private static InternalSerializationService newSide;

    private final TokenBucket bucket = TokenBucket.of(Limit.of(10, 1, Duration.ofHours(1)), Limit.of(100, 10, Duration.ofSeconds(1)));

    @BeforeAll
    static void loadTheOldTollgate() throws Exception {
        old = IsolatedTollgate.load(IsolatedTollgate.wireV0Jar());
        DataSerializableFactory oldFactory = (DataSerializableFactory) old.loadClass(LEGACY_FACTORY)
                .getConstructor().newInstance();
        oldSide = new DefaultSerializationServiceBuilder().setClassLoader(old)
                .addDataSerializableFactory(Serialization.FACTORY_ID, oldFactory).build();
        newSide = new DefaultSerializationServiceBuilder().setClassLoader(WireCompatibilityTest.class.getClassLoader())
                .addDataSerializableFactory(Serialization.FACTORY_ID, new io.tollgate.hazelcast.TollgateSerialization()).build();
    }

    @AfterAll
    static void close() throws Exception {
        oldSide.dispose();
        newSide.dispose();
        old.close();
    }

    @ParameterizedTest(name = "identified: {0}")
    @ValueSource(booleans = {true, false})
    void thisCodeReadsVersionZeroAsTheOldCodeWroteItAndWritesTheSameBytes(boolean identified) throws Exception {
        List<Object[]> pairs = List.of(
                new Object[] {oldCreate("BucketProcessor", new Class<?>[] {oldType("core.TokenBucket"), long.class, long.class, boolean.class},
                        oldBucket(), 3L, DEADLINE, identified),
                    BucketProcessor.create(bucket, 3, DEADLINE, identified, Serialization.WIRE_V0)},
                new Object[] {oldCreate("BatchProcessor", new Class<?>[] {oldType("core.TokenBucket"), long[].class, long.class, boolean.class},
                        oldBucket(), new long[] {1, 2, 3}, DEADLINE, identified),
                    BatchProcessor.create(bucket, new long[] {1, 2, 3}, new long[] {DEADLINE, DEADLINE + 5, DEADLINE + 9}, identified,
                            Serialization.WIRE_V0)},
                new Object[] {oldCreate("StateBackup", new Class<?>[] {long[].class, long.class, boolean.class}, STATE, 4_000L, identified),
                    StateBackup.create(STATE, 4_000, identified, Serialization.WIRE_V0)});
        for (Object[] pair : pairs) {
            byte[] written = oldSide.toData(pair[0]).toByteArray();
            Object read = newSide.toObject(new HeapData(written));
            assertThat(read.getClass()).isSameAs(pair[1].getClass());
            assertThat(newSide.toData(read).toByteArray()).as("%s read and written again", read.getClass().getName()).isEqualTo(written);
            assertThat(newSide.toData(pair[1]).toByteArray()).as("%s written by this code in version 0", read.getClass().getName())
                    .isEqualTo(written);
        }
    }

    @ParameterizedTest(name = "identified: {0}")
    @ValueSource(booleans = {true, false})
    void theOldCodeRefusesVersionOneWithoutDecidingAnything(boolean identified) throws Exception {
        for (Object processor : List.of(BucketProcessor.create(bucket, 3, DEADLINE, identified, Serialization.WIRE_V1),
                BatchProcessor.create(bucket, new long[] {1, 2, 3}, new long[] {DEADLINE, DEADLINE, DEADLINE}, identified,
                        Serialization.WIRE_V1))) {
            Object read = oldSide.toObject(newSide.toData(processor));
            assertThat(read.getClass().getClassLoader()).isSameAs(old);
            TestEntry entry = new TestEntry("k", STATE.clone());
            assertThatThrownBy(() -> process(read, entry))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("malformed bucket spec of length 0");
            assertThat(entry.writes()).isZero();
        }
        // a backup in version 1 reaches an old member only if it joined a moment ago: it stores an empty
        // state, with the right time-to-live, which a version-1 owner refuses rather than take for a full bucket
        Object backup = oldSide.toObject(newSide.toData(StateBackup.create(STATE, 4_000, identified, Serialization.WIRE_V1)));
        TestEntry entry = new TestEntry("k", STATE.clone());
        process(backup, entry);
        assertThat(entry.getValue()).isEmpty();
        assertThat(entry.ttlMillis()).isEqualTo(4_000);
        assertThatThrownBy(() -> OwnerProcessor.storedState(entry)).hasMessage(
                "Tollgate refuses to decide on bucket 'k': malformed bucket state of 0 longs: expected a timestamp and 1 to 16 "
                        + "limits of 2 longs each; nothing was written");
    }

    @SuppressWarnings("unchecked")
    private static Object process(Object processor, TestEntry entry) {
        return ((EntryProcessor<String, long[], Object>) processor).process(entry);
    }

    private static Class<?> oldType(String name) throws ClassNotFoundException {
        return old.loadClass("io.tollgate.internal." + name);
    }

    private static Object oldBucket() throws Exception {
        Class<?> limit = oldType("core.Limit");
        Method of = limit.getMethod("of", long.class, long.class, Duration.class);
        Object limits = Array.newInstance(limit, 2);
        Array.set(limits, 0, of.invoke(null, 10L, 1L, Duration.ofHours(1)));
        Array.set(limits, 1, of.invoke(null, 100L, 10L, Duration.ofSeconds(1)));
        return oldType("core.TokenBucket").getMethod("of", limits.getClass()).invoke(null, limits);
    }

    private static Object oldCreate(String processor, Class<?>[] types, Object... arguments) throws Exception {
        Method create = oldType("hazelcast." + processor).getDeclaredMethod("create", types);
        create.setAccessible(true);
        return create.invoke(null, arguments);
    }
}
