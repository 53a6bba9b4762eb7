package io.tollgate.internal.hazelcast;

import com.hazelcast.core.HazelcastInstance;
import io.tollgate.internal.core.Clock;

/**
 * The clock a member decides with: the system clock, unless a {@link Clock} was put into the
 * member's user context under {@link #USER_CONTEXT_KEY}. Tollgate never puts one there: the key
 * is how tests drive a real member's time exactly, members in other JVMs included, which a
 * static seam could not reach.
 */
public final class MemberClock {

    /** The user-context key of a member's clock. */
    public static final String USER_CONTEXT_KEY = "io.tollgate.clock";

    private MemberClock() {
    }

    static Clock of(HazelcastInstance member) {
        Object clock = member == null ? null : member.getUserContext().get(USER_CONTEXT_KEY);
        return clock instanceof Clock ? (Clock) clock : Clock.SYSTEM;
    }
}
