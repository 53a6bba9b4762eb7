package io.tollgate.internal.config;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;

/** Whether a member address is this host's: a loopback address, or an address of one of its network interfaces. */
final class HostAddresses {

    private HostAddresses() {
    }

    /** @return the host of {@code host} or {@code host:port} (an IPv6 address may be in brackets) */
    static String host(String member) {
        String text = member.trim();
        if (text.startsWith("[")) {
            int end = text.indexOf(']');
            return end < 0 ? text : text.substring(1, end);
        }
        int colon = text.lastIndexOf(':');
        return colon < 0 || text.indexOf(':') != colon ? text : text.substring(0, colon);
    }

    /**
     * @return whether every address {@code host} names is this host's; a name that does not resolve is taken for
     *         another host's
     */
    static boolean isThisHost(String host) {
        InetAddress[] addresses;
        try {
            addresses = InetAddress.getAllByName(host);
        } catch (UnknownHostException | SecurityException e) {
            return false;
        }
        for (InetAddress address : addresses) {
            if (!isLocal(address)) {
                return false;
            }
        }
        return addresses.length > 0;
    }

    private static boolean isLocal(InetAddress address) {
        if (address.isLoopbackAddress() || address.isAnyLocalAddress()) {
            return true;
        }
        try {
            return NetworkInterface.getByInetAddress(address) != null;
        } catch (SocketException e) {
            return false;
        }
    }
}
