package io.tollgate.internal.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.testing.JvmCluster;
import io.tollgate.testing.LoadCounts;
import io.tollgate.testing.MemberProcess;
import io.tollgate.testing.SteppableClock;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Wall clocks that step, as NTP steps them, on a cluster of 3 members in JVMs of their own (heartbeats
 * every second) while the other members decide, through Tollgate's store with deadlines, on buckets the
 * stepped member owns: a member's clock steps 2 s forward, the master's 2 s back, and a member started
 * after that step decides with the rest. Counted once the step has settled (every member's cluster time
 * agrees with Hazelcast's, and Hazelcast's agrees across members): no decision dropped as too late, no
 * store failure, and no bucket granting more than {@code burst + rate × T}. Each measurement uses
 * buckets of its own, which start full.
 */
@Tag("hazelcast")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WallClockStepTest {

    private static final long STEP_MILLIS = 2_000;
    private static final long TIMEOUT_MILLIS = 1_000;
    private static final long RATE = 20;
    private static final long BURST = 10;
    private static final int KEYS_PER_OWNER = 4;
    private static final int THREADS = 2;
    private static final long MEASURE_MILLIS = 3_000;
    private static final long AGREEMENT_WAIT_SECONDS = 30;

    private static JvmCluster cluster;
    private static int windows;

    @BeforeAll
    static void start() throws Exception {
        cluster = JvmCluster.startJvms(3, 1, List.of("-D" + SteppableClock.PROPERTY + "=" + SteppableClock.class.getName()));
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void aMemberWhoseClockStepsForwardStillAppliesWhatTheOthersSendItInTime() throws Exception {
        MemberProcess stepped = running().stream().filter(m -> !isMaster(m)).findFirst().orElseThrow();
        List<MemberProcess> callers = others(stepped);

        Window during = Window.start(callers, List.of(stepped));
        TimeUnit.SECONDS.sleep(1);
        stepped.ask("clock " + STEP_MILLIS);
        Agreement agreement = awaitAgreement();
        LoadCounts transition = during.stop();
        report("member +2 s, until settled (" + agreement + ")", transition, during.seconds);

        Window after = Window.start(callers, List.of(stepped));
        TimeUnit.MILLISECONDS.sleep(MEASURE_MILLIS);
        LoadCounts settled = after.stop();
        report("member +2 s, settled", settled, after.seconds);
        assertSettled(settled, after.seconds);
        assertThat(agreement.reached).as("every member's cluster time agrees again: %s", agreement).isTrue();
    }

    @Test
    @Order(2)
    void aMasterWhoseClockStepsBackIsFollowedAndAMemberStartedAfterwardsDecidesWithTheRest() throws Exception {
        MemberProcess master = running().stream().filter(WallClockStepTest::isMaster).findFirst().orElseThrow();
        List<MemberProcess> callers = others(master);

        Window during = Window.start(callers, List.of(master));
        TimeUnit.SECONDS.sleep(1);
        master.ask("clock " + -STEP_MILLIS);
        Agreement agreement = awaitAgreement();
        LoadCounts transition = during.stop();
        report("master -2 s, until settled (" + agreement + ")", transition, during.seconds);

        Window after = Window.start(callers, List.of(master));
        TimeUnit.MILLISECONDS.sleep(MEASURE_MILLIS);
        LoadCounts settled = after.stop();
        report("master -2 s, settled", settled, after.seconds);
        assertSettled(settled, after.seconds);

        // a member leaves and a new one joins, its first reading of the cluster's time taken after the step
        callers.get(0).shutdown();
        cluster.addMember();
        cluster.awaitSize(3);
        List<MemberProcess> members = running();
        List<Window> everyWay = new ArrayList<>();
        for (MemberProcess caller : members) {
            everyWay.add(Window.start(List.of(caller), others(caller)));
        }
        TimeUnit.MILLISECONDS.sleep(MEASURE_MILLIS);
        List<LoadCounts> counts = new ArrayList<>();
        double seconds = 0;
        for (Window window : everyWay) {
            counts.add(window.stop());
            seconds = Math.max(seconds, window.seconds);
        }
        LoadCounts joined = LoadCounts.sum(counts);
        report("master -2 s, then a member replaced: every member on the others' buckets", joined, seconds);
        assertSettled(joined, seconds);
        assertThat(counts).as("each member's own decisions").allSatisfy(c -> assertThat(c.granted()).isPositive());
        assertThat(agreement.reached).as("every member's cluster time agreed again after the step: %s", agreement).isTrue();
    }

    private static void assertSettled(LoadCounts counts, double seconds) {
        assertThat(counts.late()).as("decisions dropped as too late").isZero();
        assertThat(counts.timeouts()).as("decisions not answered within %d ms", TIMEOUT_MILLIS).isZero();
        assertThat(counts.errors()).as("store failures (first: %s)", counts.firstError()).isZero();
        assertThat(counts.granted()).as("grants").isPositive();
        assertThat(counts.mostGranted()).as("the most one bucket granted, bound burst + rate × %.2f s", seconds)
                .isLessThanOrEqualTo(bound(seconds));
    }

    private static long bound(double seconds) {
        return BURST + (long) Math.floor(RATE * seconds);
    }

    private static void report(String what, LoadCounts counts, double seconds) {
        System.out.printf("wall clock step, %s: %,d decisions in %.1f s on %d buckets; %,d granted, the most by one bucket %d "
                + "(bound %d = %d + %d/s × %.2f s); %,d dropped as too late, %d not answered within %d ms, %d failed (%s)%n",
                what, counts.decisions(), seconds, counts.allowed().size(), counts.granted(), counts.mostGranted(), bound(seconds),
                BURST, RATE, seconds, counts.late(), counts.timeouts(), TIMEOUT_MILLIS, counts.errors(), counts.firstError());
    }

    private static List<MemberProcess> running() {
        return cluster.processes().stream().filter(MemberProcess::isAlive).collect(Collectors.toList());
    }

    private static List<MemberProcess> others(MemberProcess member) {
        return running().stream().filter(m -> m != member).collect(Collectors.toList());
    }

    private static boolean isMaster(MemberProcess member) {
        try {
            return Boolean.parseBoolean(member.ask("master"));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Waits (at most {@value #AGREEMENT_WAIT_SECONDS} s) until, on every member, the cluster time
     * deadlines are checked against is Hazelcast's, and Hazelcast's is the same on all of them.
     */
    private static Agreement awaitAgreement() throws Exception {
        long start = System.nanoTime();
        long deadline = start + TimeUnit.SECONDS.toNanos(AGREEMENT_WAIT_SECONDS);
        while (true) {
            List<Long> leads = new ArrayList<>();
            List<Long> clusters = new ArrayList<>();
            for (MemberProcess member : running()) {
                String[] time = member.ask("time").split(" ");
                leads.add(Long.parseLong(time[0].substring("lead=".length())));
                clusters.add(Long.parseLong(time[1].substring("cluster=".length())));
            }
            long spread = clusters.stream().mapToLong(Long::longValue).max().orElseThrow()
                    - clusters.stream().mapToLong(Long::longValue).min().orElseThrow();
            boolean reached = spread <= ClusterTime.FOLLOW_MILLIS && leads.stream().allMatch(l -> Math.abs(l) <= ClusterTime.FOLLOW_MILLIS);
            if (reached || System.nanoTime() > deadline) {
                return new Agreement(reached, (System.nanoTime() - start) / 1e9, leads, clusters);
            }
            TimeUnit.MILLISECONDS.sleep(200);
        }
    }

    /**
     * @param leads    per member, Tollgate's cluster time minus Hazelcast's (ms)
     * @param clusters per member, Hazelcast's cluster time minus the machine's clock (ms)
     */
    private record Agreement(boolean reached, double seconds, List<Long> leads, List<Long> clusters) {
        @Override
        public String toString() {
            return (reached ? "agreed after " : "no agreement within ") + String.format("%.1f s", seconds)
                    + ": leads " + leads + " ms, cluster time - machine clock " + clusters + " ms";
        }
    }

    /** Loads started on some members, on fresh buckets owned by others, measured from the first start to the last stop. */
    private static final class Window {
        private final List<MemberProcess> callers;
        private final long start = System.nanoTime();
        private double seconds;

        private Window(List<MemberProcess> callers) {
            this.callers = callers;
        }

        static Window start(List<MemberProcess> callers, List<MemberProcess> owners) throws Exception {
            Window window = new Window(callers);
            String prefix = "w" + (++windows) + "-";
            String ownerIds = owners.stream().map(MemberProcess::uuid).map(UUID::toString).collect(Collectors.joining(","));
            for (MemberProcess caller : callers) {
                caller.ask(String.join(" ", "load", prefix, ownerIds, String.valueOf(KEYS_PER_OWNER), String.valueOf(THREADS),
                        String.valueOf(RATE), String.valueOf(BURST), String.valueOf(TIMEOUT_MILLIS)));
            }
            return window;
        }

        LoadCounts stop() throws Exception {
            List<LoadCounts> counts = new ArrayList<>();
            for (MemberProcess caller : callers) {
                counts.add(LoadCounts.parse(caller.ask("stop")));
            }
            seconds = (System.nanoTime() - start) / 1e9;
            return LoadCounts.sum(counts);
        }
    }
}
