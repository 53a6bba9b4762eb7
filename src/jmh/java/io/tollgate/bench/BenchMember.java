package io.tollgate.bench;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.tollgate.internal.hazelcast.HazelcastBucketStore;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A benchmark cluster's member in a JVM of its own, on a host of its own ({@link BenchCluster#HOSTS_PROPERTY}): the
 * configuration of {@link BenchCluster#memberConfig} with {@link Impl#configureMember}, a Tollgate store open so that it
 * advertises its wire version, and a {@link DelayRelay} in front of its port when there is a delay. It prints
 * {@value #ANSWER}{@code ready} once it has joined, then answers commands read from its standard input, one per line:
 *
 * <ul>
 *   <li>{@code settle <size>}: waits until the cluster has that many members and is safe; answers {@code settled}.</li>
 *   <li>{@code reset}: a measurement starts (relay waits and CPU time count from now); answers {@code reset}.</li>
 *   <li>{@code report}: answers {@link Histogram#encode the relay's waits}{@code |}{@link ThreadCpu#encode CPU time
 *       by group of threads} since the last {@code reset}.</li>
 * </ul>
 *
 * <p>It ends when its input ends.
 *
 * <pre>BenchMember &lt;cluster&gt; &lt;index&gt; &lt;address&gt; &lt;port&gt; &lt;delay µs&gt; &lt;advertised address,...&gt;</pre>
 */
public final class BenchMember {

    /** What starts each answer on the standard output; Hazelcast may write other lines there. */
    static final String ANSWER = "@tollgate-bench ";

    private BenchMember() {
    }

    public static void main(String[] args) throws Exception {
        String cluster = args[0];
        int index = Integer.parseInt(args[1]);
        String address = args[2];
        int port = Integer.parseInt(args[3]);
        long delayMicros = Long.parseLong(args[4]);
        List<String> addresses = List.of(args[5].split(","));
        DelayRelay relay = delayMicros > 0 ? BenchCluster.openRelay(address, port, delayMicros) : null;
        HazelcastInstance member = Hazelcast.newHazelcastInstance(BenchCluster.memberConfig(cluster, index, address, port,
                addresses, Impl::configureMember));
        HazelcastBucketStore advertiser = BenchCluster.advertise(member);
        answer("ready");
        ThreadCpu cpu = new ThreadCpu();
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String command;
        while ((command = commands.readLine()) != null) {
            if (command.startsWith("settle ")) {
                BenchCluster.settle(member, Integer.parseInt(command.substring("settle ".length())));
                answer("settled");
            } else if (command.equals("reset")) {
                if (relay != null) {
                    relay.resetWaits();
                }
                cpu = new ThreadCpu();
                answer("reset");
            } else if (command.equals("report")) {
                answer((relay == null ? new Histogram() : relay.waited()).encode() + "|" + ThreadCpu.encode(cpu.byGroup()));
            } else {
                answer("unknown command '" + command + "'");
            }
        }
        advertiser.close();
        member.getLifecycleService().terminate();
        if (relay != null) {
            relay.close();
        }
        System.exit(0);
    }

    private static void answer(String answer) {
        System.out.println(ANSWER + answer);
        System.out.flush();
    }
}
