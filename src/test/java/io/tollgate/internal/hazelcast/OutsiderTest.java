package io.tollgate.internal.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.config.Config;
import com.hazelcast.config.MapConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import example.outsider.Gadget;
import io.tollgate.internal.config.HazelcastSettings;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.testing.Await;
import io.tollgate.testing.ForeignRelay;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.PortRelay;
import io.tollgate.testing.TestRules;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Tollgate's embedded cluster with its defaults (as {@link HazelcastStores} builds it, no cluster
 * name configured; only the ports are chosen free) against other processes on 127.0.0.1: two
 * Tollgate members of this OS user form the cluster, and an outsider can neither join with the old
 * default name, nor connect as a client with the right one, nor have a class of its own
 * deserialized, nor learn the name by listening on a port of the member list.
 */
@Tag("hazelcast")
@Isolated
class OutsiderTest {

    private static final MapConfig MAP = BucketMapConfig.create(BucketMapConfig.DEFAULT_MAP_NAME, 100_000, 1);
    private static final List<LogRecord> STARTUP_LOG = new ArrayList<>();
    private static List<Integer> ports;
    private static HazelcastInstance first;
    private static HazelcastInstance second;

    @BeforeAll
    static void startTwoInstancesOfOneUser() {
        ports = HazelcastTestCluster.freePorts(2);
        String members = "127.0.0.1:" + ports.get(0) + ",127.0.0.1:" + ports.get(1);
        Logger hazelcast = Logger.getLogger("com.hazelcast");
        Logger tollgate = Logger.getLogger("io.tollgate");
        Level hazelcastLevel = hazelcast.getLevel();
        Handler capture = new Handler() {
            @Override
            public synchronized void publish(LogRecord record) {
                STARTUP_LOG.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        capture.setLevel(Level.ALL);
        hazelcast.setLevel(Level.FINEST); // everything Hazelcast says, kept here rather than printed
        hazelcast.setUseParentHandlers(false);
        hazelcast.addHandler(capture);
        tollgate.addHandler(capture);
        try {
            first = Hazelcast.newHazelcastInstance(tollgate(ports.get(0), members));
            second = Hazelcast.newHazelcastInstance(tollgate(ports.get(1), members));
            Await.until("the two instances form one cluster", Duration.ofSeconds(60), () -> HazelcastTestCluster.settled(first, 2)
                    && HazelcastTestCluster.settled(second, 2));
        } finally {
            hazelcast.removeHandler(capture);
            tollgate.removeHandler(capture);
            hazelcast.setUseParentHandlers(true);
            hazelcast.setLevel(hazelcastLevel);
        }
    }

    @AfterAll
    static void stop() {
        for (HazelcastInstance member : new HazelcastInstance[] {second, first}) {
            if (member != null) {
                member.getLifecycleService().terminate();
            }
        }
    }

    @Test
    void aSecondInstanceOfTheSameUserJoinsUnderTheNameInThatUsersPrivateFile() throws Exception {
        String name = first.getConfig().getClusterName();
        Path file = Path.of(System.getProperty("user.home"), ".tollgate", "cluster-name");
        assertThat(name).matches("tollgate-[0-9a-f]{32}");
        assertThat(Files.readString(file, StandardCharsets.US_ASCII).trim()).isEqualTo(name);
        assertThat(second.getConfig().getClusterName()).isEqualTo(name);
        assertThat(first.getCluster().getMembers()).hasSize(2);
    }

    @Test
    void theMembersListenOn127001AndNowhereElse() throws Exception {
        ListeningSockets sockets = ListeningSockets.system();
        assumeTrue(sockets.available(), "the kernel's socket tables: Linux only");
        for (int port : ports) {
            assertThat(sockets.owners(InetAddress.getByName("127.0.0.1"), port)).containsExactly(sockets.ownUid().getAsInt());
            assertThat(sockets.owners(InetAddress.getByName("0.0.0.0"), port)).as("no socket bound to every address").isEmpty();
        }
    }

    @Test
    void aMemberWithTheOldDefaultNameTollgateDoesNotJoin() {
        int port = HazelcastTestCluster.freePorts(1).get(0);
        Config old = HazelcastTestCluster.memberConfig("tollgate", 0, port, List.of("127.0.0.1:" + ports.get(0),
                "127.0.0.1:" + ports.get(1), "127.0.0.1:" + port), false);
        HazelcastInstance outsider = Hazelcast.newHazelcastInstance(old);
        try {
            String key = BucketKeys.of("outsider", "old-name");
            first.getMap(BucketMapConfig.DEFAULT_MAP_NAME).put(key, new long[] {1, 1, 1});
            assertThat(outsider.getCluster().getMembers()).as("the outsider is alone").hasSize(1);
            assertThat(first.getCluster().getMembers()).as("Tollgate's cluster").hasSize(2);
            assertThat(outsider.getMap(BucketMapConfig.DEFAULT_MAP_NAME).containsKey(key)).isFalse();
        } finally {
            outsider.getLifecycleService().terminate();
        }
    }

    @Test
    void aClientWithTheRightNameCannotConnect() {
        ClientConfig config = new ClientConfig().setClusterName(first.getConfig().getClusterName());
        config.getNetworkConfig().addAddress("127.0.0.1:" + ports.get(0), "127.0.0.1:" + ports.get(1));
        config.getConnectionStrategyConfig().getConnectionRetryConfig().setClusterConnectTimeoutMillis(5_000);
        HazelcastInstance[] client = new HazelcastInstance[1];
        try {
            assertThatThrownBy(() -> client[0] = HazelcastClient.newHazelcastClient(config))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("Unable to connect");
            assertThat(first.getClientService().getConnectedClients()).isEmpty();
            assertThat(second.getClientService().getConnectedClients()).isEmpty();
        } finally {
            if (client[0] != null) {
                client[0].shutdown();
            }
        }
    }

    @Test
    void aJavaSerializedValueOfAClassOutsideTheFilterIsRefusedByTheMemberThatWouldReadIt() {
        String key = keyOwnedBy(second);
        IMap<String, Object> buckets = first.getMap(BucketMapConfig.DEFAULT_MAP_NAME);
        Throwable refused = catchThrowable(() -> buckets.put(key, new Gadget()));
        assertThat(refused).as("the put fails").isNotNull();
        assertThat(messages(refused)).contains("Resolving class example.outsider.Gadget is not allowed.");
        assertThat(Gadget.READ).as("none of the class's code ran").hasValue(0);
        assertThat(buckets.containsKey(key)).isFalse();
    }

    @Test
    void theClusterNameIsNeverLoggedButInHazelcastsOneStartupLine() {
        String name = first.getConfig().getClusterName();
        List<String> naming = new ArrayList<>();
        for (LogRecord record : STARTUP_LOG) {
            String text = new SimpleFormatter().formatMessage(record) + (record.getThrown() == null ? "" : " " + record.getThrown());
            if (text.contains(name)) {
                naming.add(record.getLoggerName() + ": " + text);
            }
        }
        assertThat(STARTUP_LOG).as("records of Tollgate and Hazelcast while two members started").hasSizeGreaterThan(100);
        assertThat(naming).as("records naming the cluster").containsExactly(
                "com.hazelcast.system: Cluster name: " + name, "com.hazelcast.system: Cluster name: " + name);
        System.out.printf("log: %d records of Tollgate and Hazelcast (down to FINEST) while two members started; the cluster "
                + "name only in Hazelcast's startup line of each%n", STARTUP_LOG.size());
    }

    /**
     * Hazelcast's join and merge requests carry the cluster name to every address they try. Of
     * two ports of the member list held by relays to an outsider's Hazelcast member, the one of
     * this OS user is contacted at the join and at each merge round, the one of another user never.
     */
    @Test
    void aProcessOfAnotherUserOnAPortOfTheMemberListIsNeverContacted() throws Exception {
        assumeTrue(ForeignRelay.possible(), "starting a process as another user takes root and setpriv");
        List<Integer> free = HazelcastTestCluster.freePorts(4);
        int own = free.get(0);
        int foreignPort = free.get(1);
        int sameUserPort = free.get(2);
        HazelcastInstance outsider = Hazelcast.newHazelcastInstance(HazelcastTestCluster.memberConfig(
                "outsider-" + UUID.randomUUID(), 0, free.get(3), List.of("127.0.0.1:" + free.get(3)), false));
        HazelcastInstance member = null;
        try (ForeignRelay foreign = ForeignRelay.start(foreignPort, free.get(3));
                PortRelay sameUser = PortRelay.start(sameUserPort, free.get(3))) {
            assertThat(foreign.uid()).isEqualTo(ForeignRelay.NOBODY);
            Config config = tollgate(own, "127.0.0.1:" + own + ",127.0.0.1:" + foreignPort + ",127.0.0.1:" + sameUserPort);
            config.setProperty("hazelcast.merge.first.run.delay.seconds", "1"); // merge rounds every second, not minutes
            config.setProperty("hazelcast.merge.next.run.delay.seconds", "1");
            member = Hazelcast.newHazelcastInstance(config);
            String name = member.getConfig().getClusterName();
            Await.until("the same user's port is sent the name at the join and at 3 merge rounds", Duration.ofSeconds(60),
                    () -> count(sameUser.received(), name) >= 4);
            assertThat(outsider.getCluster().getMembers()).hasSize(1);
            assertThat(foreign.connections()).as("connections to the other user's port").isZero();
            assertThat(foreign.received()).doesNotContain(name);
            System.out.printf("member list with a port of another user: the same user's port was sent the name %d times "
                    + "(join and merge rounds), the other user's port had %d connections%n", count(sameUser.received(), name),
                    foreign.connections());
        } finally {
            if (member != null) {
                member.getLifecycleService().terminate();
            }
            outsider.getLifecycleService().terminate();
        }
    }

    /** Tollgate's embedded member as {@link HazelcastStores} configures it, on {@code port} with the member list {@code members}. */
    private static Config tollgate(int port, String members) throws RuntimeException {
        Map<String, String> properties = new HashMap<>();
        properties.put("tollgate.hazelcast.port", Integer.toString(port));
        properties.put("tollgate.hazelcast.members", members);
        HazelcastSettings settings = TestRules.read(properties).hazelcast();
        try {
            return HazelcastStores.memberConfig(settings, MAP);
        } catch (java.io.FileNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String keyOwnedBy(HazelcastInstance member) {
        for (int i = 0; ; i++) {
            String key = BucketKeys.of("outsider", "key-" + i);
            if (first.getPartitionService().getPartition(key).getOwner().getUuid().equals(member.getCluster().getLocalMember().getUuid())) {
                return key;
            }
        }
    }

    private static String messages(Throwable t) {
        StringBuilder all = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            all.append(c).append('\n');
        }
        return all.toString();
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + part.length())) {
            n++;
        }
        return n;
    }

}
