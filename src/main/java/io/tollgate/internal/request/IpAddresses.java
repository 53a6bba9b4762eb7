package io.tollgate.internal.request;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** Parses literal IP addresses without ever asking DNS. */
final class IpAddresses {

    private IpAddresses() {
    }

    /** @return the address bytes (4 or 16), or {@code null} if {@code text} is not a literal IP */
    static byte[] parse(String text) {
        if (text == null || text.isEmpty() || text.length() > 45) {
            return null;
        }
        if (text.indexOf(':') < 0) {
            return parseV4(text);
        }
        if (text.charAt(0) != ':' && Character.digit(text.charAt(0), 16) < 0) {
            return null; // InetAddress would take it for a host name and look it up
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == ':' || c == '.';
            if (!ok) {
                return null;
            }
        }
        try {
            byte[] bytes = InetAddress.getByName(text).getAddress(); // a literal: no lookup
            return bytes.length == 16 ? v4Mapped(bytes) : bytes;
        } catch (UnknownHostException | RuntimeException e) {
            return null;
        }
    }

    /** @return the canonical text of an address parsed by {@link #parse}, e.g. {@code ::1} for {@code 0:0:0:0:0:0:0:1} */
    static String format(byte[] address) {
        try {
            String text = InetAddress.getByAddress(address).getHostAddress();
            return address.length == 16 ? compress(text) : text;
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /**
     * @param address     a client address as {@link ClientAddress} gives it
     * @param ipv6Prefix  how many leading bits of an IPv6 address name its client (1 to 128)
     * @return the key of that client: an IPv4 address as it is, an IPv6 address as its network of
     *         {@code ipv6Prefix} bits ({@code 2001:db8:1:2::/64}), anything else as it is
     */
    static String clientKey(String address, int ipv6Prefix) {
        if (ipv6Prefix >= 128 || address.indexOf(':') < 0) {
            return address;
        }
        byte[] bytes = parse(address);
        if (bytes == null || bytes.length != 16) {
            return address;
        }
        for (int bit = ipv6Prefix; bit < 128; bit++) {
            bytes[bit / 8] &= (byte) ~(0x80 >>> (bit % 8));
        }
        return format(bytes) + "/" + ipv6Prefix;
    }

    private static byte[] parseV4(String text) {
        String[] parts = text.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        byte[] bytes = new byte[4];
        for (int i = 0; i < 4; i++) {
            String part = parts[i];
            if (part.isEmpty() || part.length() > 3) {
                return null;
            }
            int value = 0;
            for (int j = 0; j < part.length(); j++) {
                char c = part.charAt(j);
                if (c < '0' || c > '9') {
                    return null;
                }
                value = value * 10 + (c - '0');
            }
            if (value > 255) {
                return null;
            }
            bytes[i] = (byte) value;
        }
        return bytes;
    }

    private static byte[] v4Mapped(byte[] v6) {
        for (int i = 0; i < 10; i++) {
            if (v6[i] != 0) {
                return v6;
            }
        }
        if (v6[10] != (byte) 0xff || v6[11] != (byte) 0xff) {
            return v6;
        }
        return new byte[] {v6[12], v6[13], v6[14], v6[15]};
    }

    private static String compress(String full) {
        // Java prints 0:0:0:0:0:0:0:1; shorten the longest run of zero groups to "::"
        String[] groups = full.split(":");
        int bestStart = -1;
        int bestLength = 0;
        for (int i = 0; i < groups.length; ) {
            if (groups[i].equals("0")) {
                int j = i;
                while (j < groups.length && groups[j].equals("0")) {
                    j++;
                }
                if (j - i > bestLength && j - i > 1) {
                    bestStart = i;
                    bestLength = j - i;
                }
                i = j;
            } else {
                i++;
            }
        }
        if (bestStart < 0) {
            return full;
        }
        String head = String.join(":", java.util.Arrays.copyOfRange(groups, 0, bestStart));
        String tail = String.join(":", java.util.Arrays.copyOfRange(groups, bestStart + bestLength, groups.length));
        return head + "::" + tail;
    }
}
