package io.tollgate.internal.request;

import java.util.List;

/** An IP address or a CIDR range of them, IPv4 or IPv6 ({@code 10.0.0.0/8}, {@code 127.0.0.1}, {@code fd00::/8}). */
final class AddressRange {

    private final byte[] network;
    private final int prefix;

    private AddressRange(byte[] network, int prefix) {
        this.network = network;
        this.prefix = prefix;
    }

    /**
     * @param entry an address, or an address and a prefix length after {@code /}
     * @return the range
     * @throws IllegalArgumentException naming {@code entry}, if it is not one
     */
    static AddressRange parse(String entry) {
        int slash = entry.indexOf('/');
        byte[] address = IpAddresses.parse(slash < 0 ? entry : entry.substring(0, slash));
        if (address == null) {
            throw new IllegalArgumentException("'" + entry + "' is not an IP address or CIDR range");
        }
        int bits = address.length * 8;
        int prefix = bits;
        if (slash >= 0) {
            try {
                prefix = Integer.parseInt(entry.substring(slash + 1));
            } catch (NumberFormatException e) {
                prefix = -1;
            }
            if (prefix < 0 || prefix > bits) {
                throw new IllegalArgumentException("'" + entry + "' has a prefix length outside 0.." + bits);
            }
        }
        return new AddressRange(address, prefix);
    }

    /** @return whether the literal address {@code ip} lies in one of {@code ranges} (an address that is not one lies in none) */
    static boolean anyContains(List<AddressRange> ranges, String ip) {
        byte[] address = IpAddresses.parse(ip);
        if (address == null) {
            return false;
        }
        for (AddressRange range : ranges) {
            if (range.contains(address)) {
                return true;
            }
        }
        return false;
    }

    /** @return whether {@code address} (as {@link IpAddresses#parse} gives it) lies in this range */
    boolean contains(byte[] address) {
        if (address.length != network.length) {
            return false;
        }
        int full = prefix / 8;
        for (int i = 0; i < full; i++) {
            if (address[i] != network[i]) {
                return false;
            }
        }
        int rest = prefix % 8;
        if (rest == 0) {
            return true;
        }
        int mask = (0xff << (8 - rest)) & 0xff;
        return (address[full] & mask) == (network[full] & mask);
    }
}
