package io.tollgate.testing;

import java.lang.reflect.Field;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Reads what no API should expose, for the leak checks of tests: how many entries a private map of an object
 * holds. Production classes carry no accessor for tests.
 */
public final class Internals {

    private Internals() {
    }

    /** @return the size of the map in {@code owner}'s private field {@code field} */
    public static int mapSize(Object owner, String field) {
        return map(owner.getClass(), owner, field).size();
    }

    /** @return the keys of the map in {@code owner}'s private static field {@code field}, as text, read under its lock */
    public static Set<String> staticMapKeys(Class<?> owner, String field) {
        Map<?, ?> map = map(owner, null, field);
        synchronized (map) {
            return map.keySet().stream().map(String::valueOf).collect(Collectors.toSet());
        }
    }

    private static Map<?, ?> map(Class<?> type, Object owner, String field) {
        try {
            Field declared = type.getDeclaredField(field);
            declared.setAccessible(true);
            return (Map<?, ?>) declared.get(owner);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(type.getName() + " has no map " + field, e);
        }
    }
}
