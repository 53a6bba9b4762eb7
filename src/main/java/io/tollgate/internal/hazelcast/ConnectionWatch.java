package io.tollgate.internal.hazelcast;

import com.hazelcast.cluster.Address;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.instance.EndpointQualifier;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import com.hazelcast.internal.server.ServerConnection;
import com.hazelcast.internal.server.ServerConnectionManager;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Brings Tollgate's embedded member back within a second or two of a cut link's return. While packets between two
 * members are dropped, their TCP connections keep unacknowledged data, and TCP waits longer and longer between
 * retransmissions (0.2 s, 0.4 s, … 6.4 s, 12.8 s): when the link returns, the connection stays silent until the next
 * retransmission, up to 13 s after a cut of 10 s; Hazelcast relies on it and has no way to hurry it.
 *
 * <p>So every {@value #LOOK_MILLIS} ms this looks at the member's connections to each other member: a member none of
 * whose connections has read anything for {@value #SILENT_MILLIS} ms, though heartbeats come every second, is silent.
 * Its address is then tried, at most once a second, with a TCP connection of Tollgate's own (a connect within
 * {@value #PROBE_TIMEOUT_MILLIS} ms, then a close, nothing sent). Only an address that did not answer such a try and
 * then answers one has been cut off and is back. Then one of the two members, the one whose address sorts first, closes
 * its connections to the other, without a cause, so that Hazelcast neither suspects the member nor waits: its next
 * heartbeat or operation opens a new connection at once. (Both closing at once would lose the operations in flight
 * both ways.) A member that is only slow (a pause, a busy machine) answers every try, and its connections are left
 * alone. Hazelcast's internal API, the same from 5.3 to 5.7; should it change, the watch says so once and does nothing.
 */
final class ConnectionWatch {

    private static final Logger LOG = Logger.getLogger(ConnectionWatch.class.getName());
    static final long LOOK_MILLIS = 500;
    static final long SILENT_MILLIS = 2_500;
    static final int PROBE_TIMEOUT_MILLIS = 250;
    static final long PROBE_EVERY_MILLIS = 1_000;
    private final ServerConnectionManager connections;
    private final Address local;
    /** The silent members' addresses that did not answer a try since they went silent. */
    private final Set<Address> cutOff = new HashSet<>();
    /** When each silent member's address was last tried, in ms. */
    private final Map<Address, Long> triedAt = new HashMap<>();

    private ConnectionWatch(ServerConnectionManager connections, Address local) {
        this.connections = connections;
        this.local = local;
    }

    /**
     * Watches {@code member}'s connections from now on, on {@code tasks}; nothing for a client or an unknown Hazelcast.
     *
     * @return the watch's repetition, to cancel when the member is replaced; {@code null} if there is none
     */
    static Future<?> start(HazelcastInstance member, ClusterTasks tasks) {
        ServerConnectionManager connections;
        try {
            if (!(member instanceof HazelcastInstanceProxy proxy)) {
                return null;
            }
            connections = proxy.getOriginal().node.getServer().getConnectionManager(EndpointQualifier.MEMBER);
        } catch (RuntimeException | LinkageError e) {
            LOG.log(Level.INFO, "Tollgate cannot watch its member's connections on this Hazelcast version; after a cut link "
                    + "returns, TCP's retransmissions bring them back, which may take several seconds", e);
            return null;
        }
        ConnectionWatch watch = new ConnectionWatch(connections, member.getCluster().getLocalMember().getAddress());
        return tasks.everyMillis(LOOK_MILLIS, () -> watch.look(member));
    }

    private void look(HazelcastInstance member) {
        if (!member.getLifecycleService().isRunning()) {
            return;
        }
        long now = System.currentTimeMillis();
        Map<Address, Long> lastRead = new HashMap<>();
        for (ServerConnection connection : connections.getConnections()) {
            Address remote = connection.getRemoteAddress();
            if (remote != null && connection.isAlive()) {
                lastRead.merge(remote, connection.lastReadTimeMillis(), Math::max);
            }
        }
        Set<Address> silent = new HashSet<>();
        lastRead.forEach((remote, read) -> {
            if (now - read > SILENT_MILLIS) {
                silent.add(remote);
            }
        });
        cutOff.retainAll(silent);
        triedAt.keySet().retainAll(silent);
        for (Address remote : silent) {
            Long tried = triedAt.get(remote);
            if (tried != null && now - tried < PROBE_EVERY_MILLIS) {
                continue;
            }
            triedAt.put(remote, now);
            if (!answers(remote)) {
                cutOff.add(remote);
            } else if (cutOff.remove(remote) && closesFor(remote)) {
                for (ServerConnection connection : connections.getAllConnections(remote)) {
                    connection.close("Tollgate: silent for over " + SILENT_MILLIS + " ms, and " + remote
                            + " accepts connections again after it did not (a cut link came back); a new connection is opened at once",
                            null);
                }
                LOG.info("Tollgate's Hazelcast member reconnects to " + remote + ": the link to it was cut and is back");
            }
        }
    }

    /** @return whether this member, rather than {@code remote}, closes their connections: the one whose address sorts first */
    private boolean closesFor(Address remote) {
        return local.toString().compareTo(remote.toString()) < 0;
    }

    /** @return whether {@code remote} accepts a TCP connection within {@value #PROBE_TIMEOUT_MILLIS} ms */
    private static boolean answers(Address remote) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(remote.getInetAddress(), remote.getPort()), PROBE_TIMEOUT_MILLIS);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
