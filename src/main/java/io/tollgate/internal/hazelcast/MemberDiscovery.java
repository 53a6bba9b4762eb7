package io.tollgate.internal.hazelcast;

import com.hazelcast.cluster.Address;
import com.hazelcast.config.properties.PropertyDefinition;
import com.hazelcast.logging.ILogger;
import com.hazelcast.spi.discovery.AbstractDiscoveryStrategy;
import com.hazelcast.spi.discovery.DiscoveryNode;
import com.hazelcast.spi.discovery.DiscoveryStrategy;
import com.hazelcast.spi.discovery.DiscoveryStrategyFactory;
import com.hazelcast.spi.discovery.SimpleDiscoveryNode;
import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * How Tollgate's embedded member finds the others: the addresses of
 * {@code tollgate.hazelcast.members}, as TCP-IP join would try them, less every address of this
 * host where a process of another OS user listens (on Linux, where the kernel says who listens).
 * Hazelcast's join and merge requests carry the cluster name in clear to every address they try,
 * so a process of another user that took one of those ports would learn it; here such a port is
 * never contacted. A port where nobody listens is left out too (it is looked at again at the next
 * round), and so is a port whose owner cannot be read. Addresses of other hosts are tried as given.
 */
final class MemberDiscovery implements DiscoveryStrategyFactory {

    private static final Logger LOG = Logger.getLogger(MemberDiscovery.class.getName());
    /** Ports tried for a member given without one, from the member's own port on (Hazelcast's TCP-IP join tries 3). */
    static final int PORTS_PER_HOST = 3;

    private final List<String> members;
    private final int port;
    private final ListeningSockets sockets;
    private final Set<String> warned = ConcurrentHashMap.newKeySet();
    /** What the last round tried; {@code null} before the first. */
    private volatile List<Address> lastRound;

    /**
     * @param members {@code host} or {@code host:port} each
     * @param port    the port tried first for a member given without one
     */
    MemberDiscovery(List<String> members, int port, ListeningSockets sockets) {
        this.members = List.copyOf(members);
        this.port = port;
        this.sockets = sockets;
    }

    @Override
    public Class<? extends DiscoveryStrategy> getDiscoveryStrategyType() {
        return Strategy.class;
    }

    @Override
    public DiscoveryStrategy newDiscoveryStrategy(DiscoveryNode node, ILogger logger, Map<String, Comparable> properties) {
        return new Strategy(this, logger, properties);
    }

    @Override
    public Collection<PropertyDefinition> getConfigurationProperties() {
        return List.of();
    }

    /** @return the discovery {@code config} joins with, or {@code null} if it has none of Tollgate's */
    static MemberDiscovery of(com.hazelcast.config.Config config) {
        for (com.hazelcast.config.DiscoveryStrategyConfig strategy
                : config.getAdvancedNetworkConfig().getJoin().getDiscoveryConfig().getDiscoveryStrategyConfigs()) {
            if (strategy.getDiscoveryStrategyFactory() instanceof MemberDiscovery discovery) {
                return discovery;
            }
        }
        return null;
    }

    /** @return what the last round of Hazelcast's join or merge tried, for a readiness check and a warning */
    String describeLastRound() {
        List<Address> tried = lastRound;
        if (tried == null) {
            return "no round yet";
        }
        return tried.isEmpty() ? "the last round found no address to try" : "the last round tried " + tried.stream()
                .map(address -> address.getHost() + ":" + address.getPort()).collect(java.util.stream.Collectors.joining(", "));
    }

    /** @return the addresses to try now */
    List<Address> addresses() {
        OptionalInt ownUid = sockets.available() ? sockets.ownUid() : OptionalInt.empty();
        List<Address> found = new ArrayList<>();
        for (String member : members) {
            int colon = member.lastIndexOf(':');
            String host = colon < 0 ? member : member.substring(0, colon);
            int first = colon < 0 ? port : Integer.parseInt(member.substring(colon + 1));
            int count = colon < 0 ? PORTS_PER_HOST : 1;
            InetAddress[] resolved;
            try {
                resolved = InetAddress.getAllByName(host);
            } catch (UnknownHostException e) {
                warnOnce(member, "Tollgate's Hazelcast member cannot resolve '" + host + "' of tollgate.hazelcast.members");
                continue;
            }
            for (InetAddress address : resolved) {
                for (int p = first; p < first + count; p++) {
                    if (ownUid.isEmpty() || !isLocal(address) || ownedBy(address, p, ownUid.getAsInt())) {
                        found.add(new Address(address, p));
                    }
                }
            }
        }
        lastRound = List.copyOf(found);
        return found;
    }

    private boolean ownedBy(InetAddress address, int port, int uid) {
        Set<Integer> owners;
        try {
            owners = sockets.owners(address, port);
        } catch (IOException | RuntimeException e) {
            warnOnce(address + ":" + port, "Tollgate's Hazelcast member cannot tell who listens on " + address.getHostAddress() + ":"
                    + port + " and does not contact it (" + e + ")");
            return false;
        }
        if (!owners.isEmpty() && !owners.equals(Set.of(uid))) {
            warnOnce(address + ":" + port, "A process of another OS user listens on " + address.getHostAddress() + ":" + port
                    + ", an address of tollgate.hazelcast.members; Tollgate's Hazelcast member does not contact it");
            return false;
        }
        return !owners.isEmpty();
    }

    private static boolean isLocal(InetAddress address) {
        try {
            return address.isLoopbackAddress() || address.isAnyLocalAddress() || NetworkInterface.getByInetAddress(address) != null;
        } catch (SocketException e) {
            return true; // unknown: checked like a local one
        }
    }

    private void warnOnce(String what, String message) {
        if (warned.add(what)) {
            LOG.warning(message);
        }
    }

    /** The strategy Hazelcast asks at each join and merge round. */
    static final class Strategy extends AbstractDiscoveryStrategy {
        private final MemberDiscovery discovery;

        Strategy(MemberDiscovery discovery, ILogger logger, Map<String, Comparable> properties) {
            super(logger, properties);
            this.discovery = discovery;
        }

        @Override
        public Iterable<DiscoveryNode> discoverNodes() {
            List<DiscoveryNode> nodes = new ArrayList<>();
            for (Address address : discovery.addresses()) {
                nodes.add(new SimpleDiscoveryNode(address));
            }
            return nodes;
        }
    }
}
