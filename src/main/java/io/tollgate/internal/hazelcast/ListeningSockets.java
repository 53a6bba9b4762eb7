package io.tollgate.internal.hazelcast;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Which OS users listen on a local TCP port, as Linux tells every process in
 * {@code /proc/net/tcp} and {@code /proc/net/tcp6}. Elsewhere this is not known
 * ({@link #available()} is false).
 */
final class ListeningSockets {

    private static final String LISTEN = "0A";
    /** The state as it stands between its neighbours in a line (no other field is two hex digits alone). */
    private static final String LISTEN_FIELD = " " + LISTEN + " ";
    private static final int LOCAL_ADDRESS = 1;
    private static final int STATE = 3;
    private static final int UID = 7;

    private final Path tcp;
    private final Path tcp6;
    private final Path status;

    ListeningSockets(Path proc) {
        this.tcp = proc.resolve("net/tcp");
        this.tcp6 = proc.resolve("net/tcp6");
        this.status = proc.resolve("self/status");
    }

    /** @return the sockets of this machine (of this process's network namespace) */
    static ListeningSockets system() {
        return new ListeningSockets(Path.of("/proc"));
    }

    /** @return whether the owners of listening sockets can be known here */
    boolean available() {
        return Files.isReadable(tcp) && ownUid().isPresent();
    }

    /** @return the effective user id of this process, if known */
    OptionalInt ownUid() {
        try {
            for (String line : Files.readAllLines(status, StandardCharsets.US_ASCII)) {
                if (line.startsWith("Uid:")) {
                    String[] ids = line.substring(4).trim().split("\\s+");
                    return OptionalInt.of(Integer.parseInt(ids[1]));
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or not readable: unknown
        }
        return OptionalInt.empty();
    }

    /**
     * @return the user ids owning the sockets that listen on {@code port} and would accept a
     *         connection to {@code address}: bound to it, or to the wildcard address
     * @throws IOException if the tables cannot be read
     */
    Set<Integer> owners(InetAddress address, int port) throws IOException {
        Set<Integer> owners = new HashSet<>();
        byte[] wanted = address.getAddress();
        collect(tcp, port, wanted.length == 4 ? List.of(wanted, new byte[4]) : List.of(), owners);
        if (Files.isReadable(tcp6)) {
            byte[] asIpv6 = wanted.length == 4 ? mapped(wanted) : wanted;
            collect(tcp6, port, List.of(asIpv6, new byte[16]), owners);
        }
        return owners;
    }

    private static void collect(Path table, int port, List<byte[]> accepted, Set<Integer> owners) throws IOException {
        if (accepted.isEmpty()) {
            return;
        }
        List<String> lines = Files.readAllLines(table, StandardCharsets.US_ASCII);
        for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
            if (!line.contains(LISTEN_FIELD)) {
                continue; // not listening: most lines of a busy host's table, skipped before they are split
            }
            String[] fields = line.trim().split("\\s+");
            if (fields.length <= UID || !LISTEN.equals(fields[STATE])) {
                continue;
            }
            int colon = fields[LOCAL_ADDRESS].indexOf(':');
            if (Integer.parseInt(fields[LOCAL_ADDRESS].substring(colon + 1), 16) != port) {
                continue;
            }
            byte[] bound = address(fields[LOCAL_ADDRESS].substring(0, colon));
            if (accepted.stream().anyMatch(a -> Arrays.equals(a, bound))) {
                owners.add(Integer.parseInt(fields[UID]));
            }
        }
    }

    /** Decodes an address as the kernel prints it: 32-bit words in this machine's byte order. */
    static byte[] address(String hex) {
        ByteBuffer bytes = ByteBuffer.allocate(hex.length() / 2).order(ByteOrder.nativeOrder());
        for (int i = 0; i < hex.length(); i += 8) {
            bytes.putInt((int) Long.parseLong(hex.substring(i, i + 8), 16));
        }
        return bytes.array();
    }

    private static byte[] mapped(byte[] ipv4) {
        byte[] ipv6 = new byte[16];
        ipv6[10] = (byte) 0xff;
        ipv6[11] = (byte) 0xff;
        System.arraycopy(ipv4, 0, ipv6, 12, 4);
        return ipv6;
    }
}
