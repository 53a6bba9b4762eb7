package io.tollgate.internal.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.hazelcast.cluster.Address;
import io.tollgate.testing.ForeignRelay;
import io.tollgate.testing.HazelcastTestCluster;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who listens on a local port, as Linux's socket tables say, and the member list Tollgate's
 * embedded member tries from it: ports of this OS user only, and other hosts as given.
 */
class ListeningSocketsTest {

    private static final int OWN = 1000;
    private static final int OTHER = 1001;

    @TempDir
    Path proc;

    @Test
    void aSocketThisProcessListensOnIsOwnedByItsUserAndAFreePortByNobody() throws Exception {
        ListeningSockets sockets = ListeningSockets.system();
        assumeTrue(sockets.available(), "Linux only");
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        try (ServerSocket server = new ServerSocket()) {
            server.bind(new InetSocketAddress(loopback, 0));
            assertThat(sockets.owners(loopback, server.getLocalPort())).containsExactly(sockets.ownUid().getAsInt());
            server.close();
            assertThat(sockets.owners(loopback, server.getLocalPort())).isEmpty();
        }
    }

    @Test
    void aSocketOfAnotherUserIsOwnedByThatUser() throws Exception {
        assumeTrue(ForeignRelay.possible(), "starting a process as another user takes root and setpriv");
        List<Integer> ports = HazelcastTestCluster.freePorts(2);
        try (ForeignRelay relay = ForeignRelay.start(ports.get(0), ports.get(1))) {
            assertThat(ListeningSockets.system().owners(InetAddress.getByName("127.0.0.1"), ports.get(0)))
                    .containsExactly(ForeignRelay.NOBODY);
        }
    }

    @Test
    void readsBothTablesWithWildcardAndMappedAddresses() throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        kernel(List.of(
                line("127.0.0.1", 5701, "0A", OWN),
                line("0.0.0.0", 5702, "0A", OTHER),
                line("127.0.0.1", 5703, "01", OTHER), // an established connection, not a listener
                line("10.0.0.5", 5704, "0A", OTHER)), List.of(
                line("::ffff:127.0.0.1", 5704, "0A", OWN),
                line("::", 5705, "0A", OTHER),
                line("::1", 5706, "0A", OTHER)));
        ListeningSockets sockets = new ListeningSockets(proc);
        assertThat(sockets.available()).isTrue();
        assertThat(sockets.ownUid()).hasValue(OWN);
        assertThat(sockets.owners(loopback, 5701)).containsExactly(OWN);
        assertThat(sockets.owners(loopback, 5702)).as("the IPv4 wildcard").containsExactly(OTHER);
        assertThat(sockets.owners(loopback, 5703)).isEmpty();
        assertThat(sockets.owners(loopback, 5704)).as("IPv4 in IPv6, and not another address").containsExactly(OWN);
        assertThat(sockets.owners(loopback, 5705)).as("the IPv6 wildcard").containsExactly(OTHER);
        assertThat(sockets.owners(loopback, 5706)).isEmpty();
        assertThat(sockets.owners(InetAddress.getByName("::1"), 5706)).containsExactly(OTHER);
    }

    @Test
    void theMemberListLeavesOutPortsOfOtherUsersAndFreePortsButNotOtherHosts() throws Exception {
        kernel(List.of(
                line("127.0.0.1", 5701, "0A", OWN),
                line("127.0.0.1", 5702, "0A", OTHER),
                line("127.0.0.1", 6001, "0A", OWN),
                line("127.0.0.1", 6002, "0A", OWN),
                line("127.0.0.1", 6003, "0A", OTHER)), List.of());
        MemberDiscovery discovery = new MemberDiscovery(
                List.of("127.0.0.1:5701", "127.0.0.1:5702", "127.0.0.1:5703", "127.0.0.1", "192.0.2.7:5701", "no-such-host.invalid"),
                6001, new ListeningSockets(proc));
        assertThat(discovery.addresses()).containsExactly(
                new Address("127.0.0.1", 5701),
                new Address("127.0.0.1", 6001), // a member without a port: the member's own port and the next two
                new Address("127.0.0.1", 6002),
                new Address("192.0.2.7", 5701)); // another host: tried as given

        MemberDiscovery unknown = new MemberDiscovery(List.of("127.0.0.1:5702"), 6001, new ListeningSockets(proc.resolve("none")));
        assertThat(unknown.addresses()).as("where the owners cannot be known, as TCP-IP join would")
                .containsExactly(new Address("127.0.0.1", 5702));
    }

    @Test
    void decodesAddressesInTheKernelsByteOrder() throws Exception {
        for (String address : List.of("127.0.0.1", "10.20.30.40", "::1", "fd00::1234:5678", "::ffff:127.0.0.1")) {
            assertThat(ListeningSockets.address(hex(bytes(address)))).as(address).isEqualTo(bytes(address));
        }
        assertThat(ListeningSockets.address(ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? "0100007F" : "7F000001"))
                .as("loopback as /proc/net/tcp prints it").isEqualTo(new byte[] {127, 0, 0, 1});
    }

    private void kernel(List<String> tcp, List<String> tcp6) throws Exception {
        Files.createDirectories(proc.resolve("net"));
        Files.createDirectories(proc.resolve("self"));
        String header = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n";
        Files.writeString(proc.resolve("net/tcp"), header + String.join("\n", tcp) + "\n");
        Files.writeString(proc.resolve("net/tcp6"), header + String.join("\n", tcp6) + "\n");
        Files.writeString(proc.resolve("self/status"), "Name:\tjava\nUid:\t" + OWN + "\t" + OWN + "\t" + OWN + "\t" + OWN + "\n");
    }

    private static String line(String address, int port, String state, int uid) throws Exception {
        return String.format("   0: %s:%04X 00000000:0000 %s 00000000:00000000 00:00000000 00000000 %5d        0 12345 1 0 100 0 0 10 0",
                hex(bytes(address)), port, state, uid);
    }

    /** The address's bytes; an IPv4 address in IPv6 ({@code ::ffff:a.b.c.d}) in 16 bytes, as the IPv6 table has it. */
    private static byte[] bytes(String address) throws Exception {
        byte[] bytes = InetAddress.getByName(address).getAddress();
        if (address.startsWith("::ffff:")) {
            byte[] mapped = new byte[16];
            mapped[10] = (byte) 0xff;
            mapped[11] = (byte) 0xff;
            System.arraycopy(bytes, 0, mapped, 12, 4);
            return mapped;
        }
        return bytes;
    }

    /** An address as the kernel prints it: 32-bit words in this machine's byte order. */
    private static String hex(byte[] address) {
        ByteBuffer bytes = ByteBuffer.wrap(address).order(ByteOrder.nativeOrder());
        StringBuilder hex = new StringBuilder();
        while (bytes.hasRemaining()) {
            hex.append(String.format("%08X", bytes.getInt()));
        }
        return hex.toString();
    }
}
