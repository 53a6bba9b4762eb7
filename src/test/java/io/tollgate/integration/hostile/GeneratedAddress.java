package io.tollgate.integration.hostile;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** An address the generator made, with its canonical text (RFC 5952 for IPv6, IPv4-mapped as IPv4). */
final class GeneratedAddress {

    final byte[] bytes;

    GeneratedAddress(byte[] bytes) {
        this.bytes = bytes;
    }

    boolean isV4() {
        return bytes.length == 4;
    }

    String canonical() {
        return isV4() ? v4() : rfc5952(groups());
    }

    /** The README's key=ip: an IPv4 address as it is, an IPv6 one as its /64 ({@code tollgate.key.ipv6-prefix}). */
    String key() {
        if (isV4()) {
            return v4();
        }
        int[] network = groups();
        java.util.Arrays.fill(network, 4, 8, 0);
        return rfc5952(network) + "/64";
    }

    private String v4() {
        return (bytes[0] & 0xFF) + "." + (bytes[1] & 0xFF) + "." + (bytes[2] & 0xFF) + "." + (bytes[3] & 0xFF);
    }

    private int[] groups() {
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = ((bytes[2 * i] & 0xFF) << 8) | (bytes[2 * i + 1] & 0xFF);
        }
        return groups;
    }

    /** @return one of the many ways to write this address; all mean the same client */
    String spelling(Random r) {
        if (isV4()) {
            switch (r.nextInt(6)) {
                case 0:
                    return "::ffff:" + v4();
                case 1:
                    return "::FFFF:" + v4();
                case 2:
                    return String.format("0:0:0:0:0:ffff:%x:%x", ((bytes[0] & 0xFF) << 8) | (bytes[1] & 0xFF),
                            ((bytes[2] & 0xFF) << 8) | (bytes[3] & 0xFF));
                default:
                    return v4();
            }
        }
        int[] g = groups();
        switch (r.nextInt(5)) {
            case 0: {
                StringBuilder full = new StringBuilder();
                for (int i = 0; i < 8; i++) {
                    full.append(i == 0 ? "" : ":").append(String.format("%04x", g[i]));
                }
                return full.toString();
            }
            case 1: {
                StringBuilder plain = new StringBuilder();
                for (int i = 0; i < 8; i++) {
                    plain.append(i == 0 ? "" : ":").append(Integer.toHexString(g[i]));
                }
                return plain.toString().toUpperCase(java.util.Locale.ROOT);
            }
            case 2:
                return compressAnyZeroRun(g, r);
            case 3:
                return rfc5952(g).toUpperCase(java.util.Locale.ROOT);
            default:
                return rfc5952(g);
        }
    }

    /** With a port, and brackets for IPv6, as proxies may write it. */
    String withPort(Random r) {
        int port = 1 + r.nextInt(65535);
        String spelled = spelling(r);
        return spelled.indexOf(':') < 0 ? spelled + ":" + port : "[" + spelled + "]:" + port;
    }

    /** RFC 5952: lower case, no leading zeros, the first longest run of two or more zero groups as "::". */
    private static String rfc5952(int[] g) {
        int bestStart = -1;
        int bestLength = 1;
        for (int i = 0; i < 8; ) {
            int j = i;
            while (j < 8 && g[j] == 0) {
                j++;
            }
            if (j - i > bestLength) {
                bestStart = i;
                bestLength = j - i;
            }
            i = j == i ? i + 1 : j;
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                out.append("::");
                i += bestLength - 1;
                continue;
            }
            if (out.length() > 0 && out.charAt(out.length() - 1) != ':') {
                out.append(':');
            }
            out.append(Integer.toHexString(g[i]));
        }
        return out.toString();
    }

    /** A valid but not canonical spelling: "::" over some run of zero groups, perhaps a single one. */
    private static String compressAnyZeroRun(int[] g, Random r) {
        List<int[]> runs = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            if (g[i] == 0) {
                int j = i;
                while (j < 8 && g[j] == 0) {
                    j++;
                }
                int from = i + r.nextInt(j - i);
                runs.add(new int[] {from, from + 1 + r.nextInt(j - from)});
                i = j;
            }
        }
        if (runs.isEmpty()) {
            return rfc5952(g);
        }
        int[] run = runs.get(r.nextInt(runs.size()));
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < run[0]; i++) {
            out.append(i == 0 ? "" : ":").append(Integer.toHexString(g[i]));
        }
        out.append("::");
        for (int i = run[1]; i < 8; i++) {
            out.append(i == run[1] ? "" : ":").append(Integer.toHexString(g[i]));
        }
        return out.toString();
    }

    static GeneratedAddress publicV4(Random r) {
        int first;
        do {
            first = 1 + r.nextInt(223);
        } while (first == 10 || first == 127);
        return new GeneratedAddress(new byte[] {(byte) first, (byte) r.nextInt(256), (byte) r.nextInt(256), (byte) r.nextInt(256)});
    }

    static GeneratedAddress publicV6(Random r) {
        byte[] b = new byte[16];
        r.nextBytes(b);
        b[0] = (byte) (0x20 + r.nextInt(0x20)); // global unicast, never fd00::/8
        for (int i = 1; i < 8; i++) {
            if (r.nextInt(3) == 0) {
                b[2 * i] = 0;
                b[2 * i + 1] = 0;
            }
        }
        return new GeneratedAddress(b);
    }

    static GeneratedAddress trustedV4(Random r) {
        return r.nextInt(8) == 0 ? new GeneratedAddress(new byte[] {127, 0, 0, 1})
                : new GeneratedAddress(new byte[] {10, (byte) r.nextInt(256), (byte) r.nextInt(256), (byte) r.nextInt(256)});
    }

    static GeneratedAddress trustedV6(Random r) {
        GeneratedAddress a = publicV6(r);
        a.bytes[0] = (byte) 0xfd;
        return a;
    }
}
