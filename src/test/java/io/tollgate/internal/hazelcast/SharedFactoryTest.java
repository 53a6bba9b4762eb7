package io.tollgate.internal.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.nio.serialization.DataSerializableFactory;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.IsolatedTollgate;
import java.lang.ref.WeakReference;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.URLClassLoader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Several applications, each with its own copy of Tollgate's classes (a class loader of its own, with
 * Hazelcast shared), on the members of one cluster that did not know Tollgate's factory when they
 * started, as on Payara: one factory per member, put into Hazelcast's map once and never replaced,
 * made of Hazelcast's classes only; its constructors are those of the application with the highest
 * wire version still deployed. Undeploying one application leaves the others deciding every key
 * (keys owned by every member, so processors and backups travel between members), and the
 * undeployed application's classes can be unloaded.
 */
@Tag("hazelcast")
@Execution(ExecutionMode.CONCURRENT) // mostly waits: runs beside other classes
@ResourceLock("SharedFactoryTest") // and its own tests one after another
class SharedFactoryTest {

    private static final String MAP = "shared-factory";
    private static final String REGISTRY = "io.tollgate.serialization";
    private static final long BURST = 100;

    @Test
    void undeployingOneApplicationLeavesTheOthersDecidingEveryKeyAndItsClassesUnloadable() throws Exception {
        try (HazelcastTestCluster cluster = HazelcastTestCluster.start(3, false)) {
            List<String> keys = keysOwnedByEveryMember(cluster);
            Application a = new Application(cluster, 1);
            a.decidesEveryKey(keys, 99);
            for (HazelcastInstance member : cluster.members()) {
                factoryOnEveryMember.put(member, factory(member));
            }
            Application b = new Application(cluster, 1);
            b.decidesEveryKey(keys, 96);
            a.decidesEveryKey(keys, 93);

            WeakReference<ClassLoader> bClasses = b.undeploy();
            a.decidesEveryKey(keys, 90);
            Object factory = factory(cluster.member(1));
            assertThat(factory.getClass().getName()).isEqualTo("com.hazelcast.internal.serialization.impl.ArrayDataSerializableFactory");
            assertThat(factory.getClass().getClassLoader()).isSameAs(HazelcastInstance.class.getClassLoader());
            for (HazelcastInstance member : cluster.members()) {
                assertThat(member.getUserContext().get(REGISTRY).getClass().getClassLoader()).as("a JDK class").isNull();
            }
            assertActive(cluster, a);
            awaitUnloaded(bClasses);

            Application c = new Application(cluster, 1);
            assertActive(cluster, c); // the latest of equal versions
            c.decidesEveryKey(keys, 87);
            WeakReference<ClassLoader> cClasses = c.undeploy();
            assertActive(cluster, a); // handed back
            awaitUnloaded(cClasses);

            Application older = new Application(cluster, 0); // an application that reads an older wire version only
            assertActive(cluster, a);
            WeakReference<ClassLoader> aClasses = a.undeploy();
            assertActive(cluster, older);
            older.decidesEveryKey(keys, 84);
            awaitUnloaded(aClasses);

            older.undeploy();
            for (HazelcastInstance member : cluster.members()) {
                assertThat(((DataSerializableFactory) factory(member)).create(Serialization.BUCKET_PROCESSOR))
                        .as("no application left: Tollgate's types are unknown").isNull();
                assertThat(factory(member)).as("the same factory, never replaced").isSameAs(factoryOnEveryMember.get(member));
            }
            HazelcastBucketStore none = new HazelcastBucketStore(cluster.member(0), MAP, true);
            Throwable failure = catchThrowable(() -> none.acquire(keys.get(keys.size() - 1), TokenBucket.of(Limit.of(BURST, 1,
                    Duration.ofHours(1))), 1).toCompletableFuture().get(60, TimeUnit.SECONDS));
            assertThat(failure).isInstanceOf(ExecutionException.class);
            none.close();
        }
    }

    private final Map<HazelcastInstance, Object> factoryOnEveryMember = new java.util.IdentityHashMap<>();

    /** Checks that every member creates Tollgate's objects with {@code application}'s classes, through the factory first put there. */
    private void assertActive(HazelcastTestCluster cluster, Application application) throws Exception {
        for (HazelcastInstance member : cluster.members()) {
            Object factory = factory(member);
            assertThat(factory).as("one factory per member, never replaced").isSameAs(factoryOnEveryMember.get(member));
            for (int type : new int[] {Serialization.BUCKET_PROCESSOR, Serialization.STATE_BACKUP,
                Serialization.BATCH_PROCESSOR}) {
                assertThat(((DataSerializableFactory) factory).create(type).getClass().getClassLoader()).isSameAs(application.classes);
            }
        }
    }

    /** Two keys owned by each member, decided from member 0: processors and backups cross to every member. */
    private static List<String> keysOwnedByEveryMember(HazelcastTestCluster cluster) {
        List<String> keys = new ArrayList<>();
        for (HazelcastInstance owner : cluster.members()) {
            int found = 0;
            for (int i = 0; found < 2; i++) {
                String key = BucketKeys.of("shared", owner.getName() + "-" + i);
                if (cluster.ownerOf(key) == owner) {
                    keys.add(key);
                    found++;
                }
            }
        }
        return keys;
    }

    private static void awaitUnloaded(WeakReference<ClassLoader> classes) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (classes.get() != null && System.nanoTime() < deadline) {
            System.gc();
            TimeUnit.MILLISECONDS.sleep(100);
        }
        assertThat(classes.get()).as("the undeployed application's class loader, after GC").isNull();
    }

    /** @return the factory registered under Tollgate's id in the member's serialization service (Hazelcast internals, test only) */
    @SuppressWarnings("unchecked")
    private static Object factory(HazelcastInstance member) throws Exception {
        Object serialization = member.getClass().getMethod("getSerializationService").invoke(member);
        Object adapter = field(serialization, "dataSerializerAdapter");
        Object serializer = adapter.getClass().getMethod("getImpl").invoke(adapter);
        return ((Map<Object, Object>) field(serializer, "factories")).get(Serialization.FACTORY_ID);
    }

    private static Object field(Object target, String name) throws Exception {
        for (Class<?> c = target.getClass(); c != null; c = c.getSuperclass()) {
            try {
                Field field = c.getDeclaredField(name);
                field.setAccessible(true);
                return field.get(target);
            } catch (NoSuchFieldException e) {
                // look in the superclass
            }
        }
        throw new NoSuchFieldException(name);
    }

    /** {@link DeployedApplication} in a class loader of its own, over Tollgate's compiled classes. */
    private static final class Application {
        ClassLoader classes;
        private Object application;
        private Method decide;

        Application(HazelcastTestCluster cluster, int version) throws Exception {
            URLClassLoader loader = IsolatedTollgate.load(IsolatedTollgate.location(TokenBucket.class),
                    IsolatedTollgate.location(SharedFactoryTest.class));
            Class<?> type = loader.loadClass(DeployedApplication.class.getName());
            assertThat(type).isNotSameAs(DeployedApplication.class);
            application = type.getConstructor(List.class, String.class, long.class, int.class)
                    .newInstance(cluster.members(), MAP, BURST, version);
            decide = type.getMethod("decide", String.class, long[].class);
            classes = loader;
        }

        /** Decides one request and a batch of two on each key, each taking a token: {@code left} and fewer remain. */
        void decidesEveryKey(List<String> keys, long left) throws Exception {
            for (String key : keys) {
                assertThat((long[]) decide.invoke(application, key, new long[] {1})).as(key).containsExactly(left);
                assertThat((long[]) decide.invoke(application, key, new long[] {1, 1})).as(key).containsExactly(left - 1, left - 2);
            }
        }

        /** Stops the application and forgets it: @return its class loader, weakly */
        WeakReference<ClassLoader> undeploy() throws Exception {
            ((AutoCloseable) application).close();
            ((URLClassLoader) classes).close();
            WeakReference<ClassLoader> weak = new WeakReference<>(classes);
            application = null;
            decide = null;
            classes = null;
            return weak;
        }
    }
}
