package io.tollgate.internal.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import com.hazelcast.internal.cluster.impl.ClusterClockImpl;
import io.tollgate.testing.HazelcastTestCluster;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The cluster time deadlines are checked against, fed Hazelcast's readings on a monotonic clock the
 * test drives: a step of the member's own wall clock and the fall back after a pause are transient in
 * Hazelcast's value and never adopted; a step of the master's clock lasts and is adopted after three
 * heartbeat intervals (here 1 s each), so every member ends up on the same time again.
 */
class ClusterTimeTest {

    private static final long SETTLE_MILLIS = 3_000;
    /** Hazelcast's cluster time when the monotonic clock reads 0. */
    private static final long T0 = 1_800_000_000_000L;

    private long monotonicMillis;
    private final ClusterTime time = new ClusterTime(SETTLE_MILLIS, () -> TimeUnit.MILLISECONDS.toNanos(monotonicMillis));

    /** Moves the monotonic clock to {@code millis} and hands over Hazelcast's value, {@code error} off the true time. */
    private long at(long millis, long error) {
        monotonicMillis = millis;
        return time.now(T0 + millis + error);
    }

    @Test
    void theFirstReadingIsAdoptedAtOnceAndSmallChangesAreFollowedAtOnce() {
        assertThat(at(0, 40)).isEqualTo(T0 + 40);
        assertThat(at(1_000, 40 + 90)).as("a heartbeat later by 90 ms").isEqualTo(T0 + 1_130);
        assertThat(at(2_000, 130 - 100)).as("and one earlier by 100 ms").isEqualTo(T0 + 2_030);
        assertThat(at(2_001, 30)).isEqualTo(T0 + 2_031);
    }

    @Test
    void aStepOfTheMembersOwnClockThatTheNextHeartbeatUndoesIsNeverAdopted() {
        at(0, 0);
        // NTP steps this member's wall clock 2 s forward; the master's next heartbeat comes 0.9 s later
        for (long t = 1_000; t < 1_900; t += 100) {
            assertThat(at(t, 2_000)).as("at %d ms", t).isEqualTo(T0 + t);
        }
        assertThat(at(1_900, 0)).isEqualTo(T0 + 1_900);
        // a step the other way, undone the same way
        for (long t = 5_000; t < 5_900; t += 100) {
            assertThat(at(t, -2_000)).as("at %d ms", t).isEqualTo(T0 + t);
        }
        assertThat(at(5_900, 0)).isEqualTo(T0 + 5_900);
        assertThat(at(9_000, 2_000)).as("a later step counts from its own start").isEqualTo(T0 + 9_000);
    }

    @Test
    void aPausedMemberDoesNotFallBackWhenItReadsTheHeartbeatsThatQueuedUp() {
        at(0, 0);
        at(1_000, 0);
        // frozen for 4 s; on waking it works through the master's heartbeats stamped during the freeze
        assertThat(at(5_000, 0)).isEqualTo(T0 + 5_000);
        assertThat(at(5_010, -4_000)).isEqualTo(T0 + 5_010);
        assertThat(at(5_020, -3_000)).isEqualTo(T0 + 5_020);
        assertThat(at(5_030, -1_000)).isEqualTo(T0 + 5_030);
        assertThat(at(5_900, -1_000)).isEqualTo(T0 + 5_900);
        assertThat(at(6_000, 10)).as("a fresh heartbeat").isEqualTo(T0 + 6_010);
    }

    /** A heartbeat late by more than the followed jitter just before a freeze must not let the freeze's fall back settle. */
    @Test
    void aPauseWhileAnotherChangeSettlesDoesNotAdoptTheFallBackThatFollowsIt() {
        at(0, 0);
        assertThat(at(1_000, 150)).as("a heartbeat 150 ms off: settling").isEqualTo(T0 + 1_000);
        // frozen for 4 s, longer than the settling period; on waking it reads a heartbeat stamped before the freeze
        assertThat(at(5_000, -3_900)).as("the fall back is another change").isEqualTo(T0 + 5_000);
        assertThat(at(5_500, -3_900)).isEqualTo(T0 + 5_500);
        assertThat(at(6_000, 0)).as("a fresh heartbeat").isEqualTo(T0 + 6_000);
    }

    @Test
    void doesNotFallBackByTheRoundingOfTwoClocksInMilliseconds() {
        at(0, 0);
        long before = at(5, 1); // Hazelcast's milliseconds and the monotonic clock's turn over at different moments
        assertThat(at(5, -4_000)).as("a stale heartbeat, at the same moment").isGreaterThanOrEqualTo(before);
        assertThat(at(6, 0)).isGreaterThanOrEqualTo(before);
    }

    @ParameterizedTest(name = "master steps {0} ms")
    @ValueSource(longs = {-2_000, 2_000})
    void aStepOfTheMastersClockIsAdoptedOnceItHasLastedTheSettlingPeriod(long step) {
        at(0, 0);
        at(1_000, step); // this member's next heartbeat carries the master's new time
        assertThat(at(3_999, step)).as("not yet").isEqualTo(T0 + 3_999);
        assertThat(at(4_000, step)).as("three heartbeats later").isEqualTo(T0 + 4_000 + step);
        assertThat(at(5_000, step + 50)).as("followed from then on").isEqualTo(T0 + 5_050 + step);
    }

    @Test
    void aChangeThatDoesNotLastMustLastTheWholeSettlingPeriodWhenItComesAgain() {
        at(0, 0);
        assertThat(at(1_000, -2_000)).isEqualTo(T0 + 1_000);
        assertThat(at(3_500, -2_000)).isEqualTo(T0 + 3_500);
        assertThat(at(3_600, 0)).isEqualTo(T0 + 3_600);
        assertThat(at(4_000, -2_000)).isEqualTo(T0 + 4_000);
        assertThat(at(6_999, -2_000)).isEqualTo(T0 + 6_999);
        assertThat(at(7_000, -2_000)).isEqualTo(T0 + 5_000);
    }

    /** The real thing: a member's heartbeat interval sets the settling period, and a stale heartbeat is not followed. */
    @Test
    @Tag("hazelcast")
    void onAMemberTheSettlingPeriodIsThreeOfItsHeartbeatIntervals() {
        String name = "tollgate-cluster-time-" + UUID.randomUUID();
        int port = HazelcastTestCluster.freePorts(1).get(0);
        Config config = HazelcastTestCluster.memberConfig(name, 0, port, List.of("127.0.0.1:" + port), true)
                .setProperty("hazelcast.heartbeat.interval.seconds", "2");
        HazelcastInstance member = Hazelcast.newHazelcastInstance(config);
        try {
            ClusterTime time = ClusterTime.of(member);
            assertThat(time.settleMillis()).isEqualTo(6_000);
            ClusterClockImpl clock = ((HazelcastInstanceProxy) member).getOriginal().node
                    .getClusterService().getClusterClock();
            long before = time.now(member);
            clock.setMasterTime(System.currentTimeMillis() - 5_000); // a heartbeat stamped 5 s ago
            assertThat(member.getCluster().getClusterTime()).isLessThan(before - 4_000);
            assertThat(time.now(member)).isGreaterThanOrEqualTo(before);
        } finally {
            member.getLifecycleService().terminate();
        }
    }
}
