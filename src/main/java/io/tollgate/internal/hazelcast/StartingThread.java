package io.tollgate.internal.hazelcast;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Starts and stops an embedded member, leaving nothing of it on the thread that does. From 5.4 on, Hazelcast declares the new
 * member's node engine in a thread-local of the thread that starts it ({@code NodeEngineThreadLocalContext}, for user
 * code namespaces) and never removes it: on a server thread that outlives the application (WildFly starts applications
 * on its long-lived MSC service threads) it would keep the undeployed application's class loader, and every class it
 * loaded, alive (5.3 has no such thread-local). RedeployIT on WildFly, whose WARs bundle 5.5.0, counts the class loaders
 * that stay. Every cluster-wide operation a member runs on a caller's
 * thread declares it there too: {@link HazelcastStores#leaveThread()} removes it when a deployment's or an
 * undeployment's work is done.
 */
final class StartingThread {

    static final String NODE_ENGINE_CONTEXT = "com.hazelcast.internal.namespace.impl.NodeEngineThreadLocalContext";
    private static final Logger LOG = Logger.getLogger(StartingThread.class.getName());

    private StartingThread() {
    }

    static HazelcastInstance startMember(Config config) {
        try {
            return Hazelcast.newHazelcastInstance(config);
        } finally {
            forgetNodeEngine();
        }
    }

    /** Shuts the member down; the thread doing it may be as long-lived as the one that started it. */
    static void stop(HazelcastInstance member) {
        try {
            member.shutdown();
        } finally {
            forgetNodeEngine();
        }
    }

    /** Removes the node engine Hazelcast declared on this thread, where this Hazelcast declares one. */
    static void forgetNodeEngine() {
        try {
            Class.forName(NODE_ENGINE_CONTEXT, true, HazelcastInstance.class.getClassLoader())
                    .getMethod("destroyNodeEngineReference").invoke(null);
        } catch (ClassNotFoundException e) {
            // Hazelcast before 5.4: nothing is left on the thread
        } catch (ReflectiveOperationException | LinkageError e) {
            LOG.log(Level.FINE, "Could not remove Hazelcast's node engine from the thread that started the member", e);
        }
    }
}
