package io.tollgate.testing;

import java.lang.reflect.Field;
import java.util.Map;

/**
 * Reads what no API should expose, for the leak checks of tests: how many entries a private map of an object
 * holds. Production classes carry no accessor for tests.
 */
public final class Internals {

    private Internals() {
    }

    /** @return the size of the map in {@code owner}'s private field {@code field} */
    public static int mapSize(Object owner, String field) {
        try {
            Field declared = owner.getClass().getDeclaredField(field);
            declared.setAccessible(true);
            return ((Map<?, ?>) declared.get(owner)).size();
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(owner.getClass().getName() + " has no map " + field, e);
        }
    }
}
