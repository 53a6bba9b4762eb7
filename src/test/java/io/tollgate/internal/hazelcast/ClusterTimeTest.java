package io.tollgate.internal.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import com.hazelcast.internal.cluster.impl.ClusterClockImpl;
import io.tollgate.testing.HazelcastTestCluster;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A member's cluster time falls back when it reads a master heartbeat that waited out a pause: the
 * time deadlines are checked against does not, unless the fall is too large to be a pause.
 */
@Tag("hazelcast")
class ClusterTimeTest {

    @Test
    void doesNotFallBackWithAStaleHeartbeatButFollowsARealStepBack() {
        try (HazelcastTestCluster cluster = HazelcastTestCluster.start(1)) {
            HazelcastInstance member = cluster.member(0);
            ClusterClockImpl clock = (ClusterClockImpl) ((HazelcastInstanceProxy) member).getOriginal().node
                    .getClusterService().getClusterClock();
            long before = ClusterTime.of(member).now(member);

            clock.setMasterTime(System.currentTimeMillis() - 5_000); // a heartbeat stamped 5 s ago
            assertThat(member.getCluster().getClusterTime()).isLessThan(before - 4_000);
            assertThat(ClusterTime.of(member).now(member)).isGreaterThanOrEqualTo(before);

            clock.setMasterTime(System.currentTimeMillis() - 120_000); // the cluster's clock went back 2 minutes
            long stepped = ClusterTime.of(member).now(member);
            assertThat(stepped).isLessThan(before - 100_000);
            assertThat(ClusterTime.of(member).now(member)).isGreaterThanOrEqualTo(stepped);
        }
    }
}
