package io.tollgate.internal.hazelcast;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.nio.serialization.DataSerializableFactory;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Registers {@link TollgateSerialization} with a member that started before the application, such
 * as Payara's Data Grid. A server's instance cannot load classes of the applications deployed on it
 * by name on every thread: Payara restores an application's class loader only for Java-serialized
 * objects sent from an application thread, so a processor by class name, a backup sent from a
 * partition thread, or a batch sent by the coalescing thread would fail on the other members. The
 * factory, registered on each member by the application deployed there, creates Tollgate's objects
 * by type id with the application's own classes, on any thread. Hazelcast has no public way to add a
 * factory to a running member, so this reaches into its serialization service; it is tried only on
 * instances Tollgate did not configure, and undone when the application stops.
 */
final class LateFactoryRegistration {

    private static final Logger LOG = Logger.getLogger(LateFactoryRegistration.class.getName());

    private final Map<Object, Object> factories;
    private final DataSerializableFactory factory;

    private LateFactoryRegistration(Map<Object, Object> factories, DataSerializableFactory factory) {
        this.factories = factories;
        this.factory = factory;
    }

    /** @return the registration, to {@link #undo()} later, or {@code null} if it cannot be done here */
    @SuppressWarnings("unchecked")
    static LateFactoryRegistration register(HazelcastInstance member) {
        try {
            Method service = member.getClass().getMethod("getSerializationService");
            Object serialization = service.invoke(member);
            Object adapter = field(serialization.getClass(), "dataSerializerAdapter").get(serialization);
            Object serializer = adapter.getClass().getMethod("getImpl").invoke(adapter);
            Map<Object, Object> factories = (Map<Object, Object>) field(serializer.getClass(), "factories").get(serializer);
            TollgateSerialization ours = new TollgateSerialization();
            synchronized (factories) {
                Object present = factories.get(TollgateSerialization.FACTORY_ID);
                if (present != null && !present.getClass().getName().equals(TollgateSerialization.class.getName())) {
                    LOG.warning("Factory id " + TollgateSerialization.FACTORY_ID + " is taken by " + present.getClass().getName()
                            + " on this Hazelcast member; Tollgate sends its processors by class name instead");
                    return null;
                }
                factories.put(TollgateSerialization.FACTORY_ID, ours);
            }
            return new LateFactoryRegistration(factories, ours);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.log(Level.INFO, "Could not register Tollgate's serialization factory with the server's Hazelcast member ("
                    + e + "); Tollgate sends its processors by class name, which needs the application's classes on every member");
            return null;
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

    /** Removes the factory again, so the stopped application's classes can be unloaded. */
    void undo() {
        synchronized (factories) {
            if (factories.get(TollgateSerialization.FACTORY_ID) == factory) {
                factories.remove(TollgateSerialization.FACTORY_ID);
            }
        }
    }
}
