package io.tollgate.internal.hazelcast;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.util.ConstructorFunction;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Registers Tollgate's serialization with a member that started before the application, such as
 * Payara's Data Grid. A server's instance cannot load classes of the applications deployed on it by
 * name on every thread: Payara restores an application's class loader only for Java-serialized
 * objects sent from an application thread, so a processor by class name, a backup sent from a
 * partition thread, or a batch sent by the coalescing thread would fail on the other members. The
 * factory, registered on each member by the application deployed there, creates Tollgate's objects
 * by type id with an application's own classes, on any thread. Hazelcast has no public way to add a
 * factory to a running member, so this reaches into its serialization service; it is tried only on
 * instances Tollgate did not configure.
 *
 * <p><b>Several applications on one member.</b> Hazelcast reads its map of factories without a lock,
 * so Tollgate puts a factory into it once per member and never removes or replaces it: Hazelcast's
 * own {@code ArrayDataSerializableFactory}, a server class that pins no application's class loader,
 * over an array of constructors, one slot per type id. The slots hold one application's
 * constructors at a time, each swapped atomically: those of the application with the highest wire
 * version still deployed (the latest deployed among equals), which reads every version the others
 * read. An application that stops removes its constructors and hands the slots to the next one, or
 * empties them if none is left (its types are then unknown, and a decision sent by type id fails
 * until a Tollgate registers again).
 *
 * <p>The applications find each other through a registry made of JDK classes only, in the member's
 * user context under {@value #REGISTRY}, and synchronize on it. Its layout is shared by every
 * Tollgate version that uses it, so it only ever changes compatibly: a {@code LinkedHashMap<Object,
 * Object>} in registration order, with {@code "factory"} → the factory in Hazelcast's map,
 * {@code "slots"} → that factory's array of constructors, and each application's registration (an
 * {@code Object}) → {@code Object[] {Integer wire version, Object[] constructors by type id}}.
 */
final class LateFactoryRegistration {

    /** The user-context key of the member's registry of Tollgate applications. */
    static final String REGISTRY = "io.tollgate.serialization";
    private static final String FACTORY = "factory";
    private static final String SLOTS = "slots";
    private static final String ARRAY_FACTORY = "com.hazelcast.internal.serialization.impl.ArrayDataSerializableFactory";

    private static final Logger LOG = Logger.getLogger(LateFactoryRegistration.class.getName());

    private final Map<Object, Object> registry;
    private final Object registration = new Object();

    private LateFactoryRegistration(Map<Object, Object> registry) {
        this.registry = registry;
    }

    /** @return this application's registration, to {@link #undo()} when it stops, or {@code null} if it cannot be done here */
    static LateFactoryRegistration register(HazelcastInstance member) {
        return register(member, Serialization.WIRE_VERSION);
    }

    /** @param version the highest wire version this application reads: the highest among the deployed ones wins the slots */
    static LateFactoryRegistration register(HazelcastInstance member, int version) {
        try {
            Map<Object, Object> registry = registry(member);
            if (registry == null) {
                return null;
            }
            LateFactoryRegistration registration = new LateFactoryRegistration(registry);
            synchronized (registry) {
                Object[] slots = slots(member, registry);
                if (slots == null) {
                    return null;
                }
                registry.put(registration.registration, new Object[] {version, constructors(slots.getClass().getComponentType())});
                activate(registry);
                publish(member, registry); // only now: a factory found with empty slots fails what it is asked to read
            }
            return registration;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            LOG.log(Level.INFO, "Could not register Tollgate's serialization factory with the server's Hazelcast member ("
                    + e + "); Tollgate sends its processors by class name, which needs the application's classes on every member");
            return null;
        }
    }

    /** Removes this application's constructors, handing the slots to another application's, or emptying them. */
    void undo() {
        synchronized (registry) {
            if (registry.remove(registration) != null) {
                activate(registry);
            }
        }
    }

    /** @return the member's registry, created if this is the first Tollgate there; {@code null} if something else holds the key */
    @SuppressWarnings("unchecked")
    private static Map<Object, Object> registry(HazelcastInstance member) {
        ConcurrentMap<String, Object> context = member.getUserContext();
        context.putIfAbsent(REGISTRY, new LinkedHashMap<Object, Object>());
        Object registry = context.get(REGISTRY);
        if (!(registry instanceof LinkedHashMap)) {
            LOG.warning("The Hazelcast member's user context holds a " + registry.getClass().getName() + " under " + REGISTRY
                    + "; Tollgate sends its processors by class name instead");
            return null;
        }
        return (Map<Object, Object>) registry;
    }

    /**
     * @return the slots of the factory in Hazelcast's map, making a factory if this is the first Tollgate on the member
     *         ({@link #publish} puts it there once its slots are filled); {@code null} if another factory holds Tollgate's
     *         factory id
     */
    private static Object[] slots(HazelcastInstance member, Map<Object, Object> registry) throws ReflectiveOperationException {
        Map<Object, Object> factories = factories(member);
        Object factory = registry.get(FACTORY);
        if (factory != null) {
            Object published = factories.get(Serialization.FACTORY_ID);
            if (published != null && published != factory) {
                LOG.warning("Tollgate's serialization factory is no longer in this Hazelcast member's factories; "
                        + "Tollgate sends its processors by class name instead");
                return null;
            }
            return (Object[]) registry.get(SLOTS);
        }
        synchronized (factories) { // the lock Tollgate 0.1 took around its own registration
            Object present = factories.get(Serialization.FACTORY_ID);
            if (present != null) {
                LOG.warning("Factory id " + Serialization.FACTORY_ID + " is taken by " + present.getClass().getName()
                        + " on this Hazelcast member (an older Tollgate in another application?); Tollgate sends its processors "
                        + "by class name instead until the member restarts");
                return null;
            }
            Class<?> type = Class.forName(ARRAY_FACTORY, true, factories.getClass().getClassLoader());
            Constructor<?> create = type.getConstructors()[0];
            Object empty = Array.newInstance(create.getParameterTypes()[0].getComponentType(), Serialization.TYPE_COUNT);
            factory = create.newInstance(empty);
            Object[] slots = (Object[]) field(type, "constructors").get(factory);
            registry.put(FACTORY, factory);
            registry.put(SLOTS, slots);
            return slots;
        }
    }

    /** Puts the member's factory into Hazelcast's map, if it is not there yet. */
    private static void publish(HazelcastInstance member, Map<Object, Object> registry) throws ReflectiveOperationException {
        Map<Object, Object> factories = factories(member);
        synchronized (factories) {
            factories.putIfAbsent(Serialization.FACTORY_ID, registry.get(FACTORY));
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<Object, Object> factories(HazelcastInstance member) throws ReflectiveOperationException {
        Method service = member.getClass().getMethod("getSerializationService");
        Object serialization = service.invoke(member);
        Object adapter = field(serialization.getClass(), "dataSerializerAdapter").get(serialization);
        Object serializer = adapter.getClass().getMethod("getImpl").invoke(adapter);
        return (Map<Object, Object>) field(serializer.getClass(), "factories").get(serializer);
    }

    /** @return this application's constructors, one per type id, as the factory's slots take them */
    private static Object[] constructors(Class<?> slotType) {
        Object[] constructors = new Object[Serialization.TYPE_COUNT];
        constructors[Serialization.BUCKET_PROCESSOR] = new Creator(BucketProcessor.Identified::new);
        constructors[Serialization.STATE_BACKUP] = new Creator(StateBackup.Identified::new);
        constructors[Serialization.BATCH_PROCESSOR] = new Creator(BatchProcessor.Identified::new);
        constructors[Serialization.REFUND_PROCESSOR] = new Creator(RefundProcessor.Identified::new);
        constructors[Serialization.RETAIN_PROCESSOR] = new Creator(RetainProcessor.Identified::new);
        for (Object constructor : constructors) {
            if (constructor != null && !slotType.isInstance(constructor)) {
                throw new IllegalStateException("this Hazelcast's factory takes constructors of type " + slotType.getName());
            }
        }
        return constructors;
    }

    /** Puts the constructors of the application with the highest wire version (the latest among equals) into the slots, or empties them. */
    private static void activate(Map<Object, Object> registry) {
        Object[] active = null;
        int highest = Integer.MIN_VALUE;
        for (Map.Entry<Object, Object> entry : registry.entrySet()) {
            if (FACTORY.equals(entry.getKey()) || SLOTS.equals(entry.getKey())) {
                continue;
            }
            Object[] application = (Object[]) entry.getValue();
            int version = (Integer) application[0];
            if (version >= highest) {
                highest = version;
                active = (Object[]) application[1];
            }
        }
        Object[] slots = (Object[]) registry.get(SLOTS);
        VarHandle slot = MethodHandles.arrayElementVarHandle(slots.getClass());
        for (int i = 0; i < slots.length; i++) {
            slot.setVolatile(slots, i, active == null || i >= active.length ? null : active[i]);
        }
    }

    private static Field field(Class<?> type, String name) throws NoSuchFieldException {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            try {
                Field field = c.getDeclaredField(name);
                field.setAccessible(true);
                return field;
            } catch (NoSuchFieldException e) {
                // look in the superclass
            }
        }
        throw new NoSuchFieldException(type.getName() + "." + name);
    }

    /**
     * One of this application's constructors, in both forms Hazelcast's array factory has taken: a
     * {@code ConstructorFunction} (5.3) and a {@code Supplier} (5.5 on).
     */
    private static final class Creator implements ConstructorFunction<Integer, IdentifiedDataSerializable>,
            Supplier<IdentifiedDataSerializable> {
        private final Supplier<IdentifiedDataSerializable> create;

        Creator(Supplier<IdentifiedDataSerializable> create) {
            this.create = create;
        }

        @Override
        public IdentifiedDataSerializable createNew(Integer typeId) {
            return create.get();
        }

        @Override
        public IdentifiedDataSerializable get() {
            return create.get();
        }
    }
}
