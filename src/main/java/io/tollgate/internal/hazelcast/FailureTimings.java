package io.tollgate.internal.hazelcast;

import com.hazelcast.config.Config;
import com.hazelcast.config.ServerSocketEndpointConfig;

/**
 * How fast Tollgate's embedded member notices a member it cannot reach, and how soon the two sides of a split cluster
 * look for each other again, chosen for a rate limiter. Hazelcast's defaults (a heartbeat every 5 s, a member
 * declared gone after 60 s without one, the first merge attempt 300 s after the start and then every 120 s) suit a
 * data grid whose members hold data nobody can recreate; a rate limiter's buckets are worth less than a minute of
 * limiting by the failure policy, and a split should heal within seconds of the network's return.
 *
 * <ul>
 * <li>a heartbeat every {@value #HEARTBEAT_SECONDS} s, and a member silent for {@value #MEMBER_TIMEOUT_SECONDS} s is
 *     taken for gone: a cut shorter than that is a blip, answered by the policy for the keys it touches; a longer one
 *     splits the cluster, and each side goes on with its copy of the buckets (with a quorum, the side below it answers
 *     by the policy);
 * <li>after a split, the sides look for each other every {@value #MERGE_SECONDS} s (the first time
 *     {@value #MERGE_SECONDS} s after a member's start), and merge as soon as they find each other;
 * <li>a connection attempt gives up after {@value #CONNECT_SECONDS} s (with its own network settings, a member waits as
 *     long as the operating system keeps resending its first packet, about two minutes): an attempt made while the
 *     other side was cut off would otherwise hold up the next one, and the merge, for up to a minute after the
 *     network's return.
 * </ul>
 * A member configured by a file of the user's ({@code tollgate.hazelcast.config}) keeps that file's timings.
 */
final class FailureTimings {

    static final int HEARTBEAT_SECONDS = 1;
    static final int MEMBER_TIMEOUT_SECONDS = 10;
    static final int MERGE_SECONDS = 5;
    static final int CONNECT_SECONDS = 3;

    private FailureTimings() {
    }

    static void applyTo(Config config) {
        config.setProperty("hazelcast.heartbeat.interval.seconds", Integer.toString(HEARTBEAT_SECONDS));
        config.setProperty("hazelcast.max.no.heartbeat.seconds", Integer.toString(MEMBER_TIMEOUT_SECONDS));
        config.setProperty("hazelcast.merge.first.run.delay.seconds", Integer.toString(MERGE_SECONDS));
        config.setProperty("hazelcast.merge.next.run.delay.seconds", Integer.toString(MERGE_SECONDS));
    }

    /** @return {@code endpoint}, giving up a connection attempt after {@value #CONNECT_SECONDS} s */
    static ServerSocketEndpointConfig applyTo(ServerSocketEndpointConfig endpoint) {
        endpoint.setSocketConnectTimeoutSeconds(CONNECT_SECONDS);
        return endpoint;
    }
}
