package io.tollgate.internal.hazelcast;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What Hazelcast leaves on a thread that works with a member. From 5.4 on, a member declares its node engine in a
 * thread-local of every thread it runs a cluster-wide operation on, the caller's included ({@code
 * NodeEngineThreadLocalContext}: starting the member, adding or removing a listener or a map configuration, shutting
 * down), and never removes it. A server that deploys and undeploys on long-lived threads of its own (WildFly's MSC
 * threads) would keep every undeployed application's class loader that way, and every class it loaded. Names no class
 * of Hazelcast's, so that it can be called where Hazelcast is absent.
 */
public final class HazelcastThreadLocals {

    static final String NODE_ENGINE_CONTEXT = "com.hazelcast.internal.namespace.impl.NodeEngineThreadLocalContext";
    private static final Logger LOG = Logger.getLogger(HazelcastThreadLocals.class.getName());

    private HazelcastThreadLocals() {
    }

    /** Removes the node engine Hazelcast declared on the calling thread, where the Hazelcast Tollgate sees declares one. */
    public static void clear() {
        try {
            Class.forName(NODE_ENGINE_CONTEXT, true, HazelcastThreadLocals.class.getClassLoader())
                    .getMethod("destroyNodeEngineReference").invoke(null);
        } catch (ClassNotFoundException e) {
            // no Hazelcast, or one before 5.4: nothing is left on the thread
        } catch (ReflectiveOperationException | LinkageError e) {
            LOG.log(Level.FINE, "Could not remove Hazelcast's node engine from the calling thread", e);
        }
    }
}
