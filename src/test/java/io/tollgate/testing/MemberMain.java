package io.tollgate.testing;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.tollgate.internal.hazelcast.MemberClock;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * A Hazelcast member in a JVM of its own, for tests that kill, freeze or stop members for real.
 * Arguments: cluster name, index, port, the members' addresses (comma-separated). It prints
 * {@value #READY} once it has joined; on {@code shutdown} from standard input it leaves gracefully,
 * and when standard input closes (the test JVM is gone) it terminates, so no member outlives its test.
 * Other lines from standard input are {@link MemberCommands}, each answered by one line starting
 * with {@value MemberCommands#REPLY}. A JVM started with a {@link SteppableClock} decides buckets on it too.
 */
public final class MemberMain {

    static final String READY = "tollgate-member-ready";
    static final String SHUTDOWN = "shutdown";

    private MemberMain() {
    }

    public static void main(String[] args) throws Exception {
        List<String> addresses = Arrays.asList(args[3].split(","));
        Config config = HazelcastTestCluster.memberConfig(args[0], Integer.parseInt(args[1]), Integer.parseInt(args[2]), addresses, true);
        MemberProcess.tuneFailureDetection(config);
        if (SteppableClock.installed()) {
            config.getUserContext().put(MemberClock.USER_CONTEXT_KEY, SteppableClock.BUCKETS);
        }
        HazelcastInstance member = Hazelcast.newHazelcastInstance(config);
        System.out.println("cluster time - wall clock: " + (member.getCluster().getClusterTime() - System.currentTimeMillis()) + " ms");
        System.out.println(READY + " " + member.getCluster().getLocalMember().getUuid());
        System.out.flush();
        MemberCommands commands = new MemberCommands(member);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (SHUTDOWN.equals(line.trim())) {
                member.shutdown();
                System.exit(0);
            } else if (!line.isBlank()) {
                System.out.println(MemberCommands.REPLY + " " + commands.run(line));
                System.out.flush();
            }
        }
        member.getLifecycleService().terminate();
        System.exit(1);
    }
}
