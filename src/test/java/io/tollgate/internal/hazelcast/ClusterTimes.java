package io.tollgate.internal.hazelcast;

import com.hazelcast.core.HazelcastInstance;

/** What tests outside this package may ask of {@link ClusterTime}. */
public final class ClusterTimes {

    private ClusterTimes() {
    }

    /** @return how far the cluster time Tollgate checks deadlines against is ahead of Hazelcast's on {@code member} (ms) */
    public static long lead(HazelcastInstance member) {
        long hazelcast = member.getCluster().getClusterTime();
        return ClusterTime.of(member).now(hazelcast) - hazelcast;
    }
}
