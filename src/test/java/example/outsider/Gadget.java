package example.outsider;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A class of someone else's that runs code when Java deserializes it, as the classes of
 * deserialization attacks do: here it only counts. Outside Tollgate's packages on purpose.
 */
public final class Gadget implements Serializable {

    private static final long serialVersionUID = 1L;
    /** How many times any JVM-local copy was deserialized. */
    public static final AtomicInteger READ = new AtomicInteger();

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        READ.incrementAndGet();
    }
}
