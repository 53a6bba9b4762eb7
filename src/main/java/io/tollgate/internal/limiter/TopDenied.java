package io.tollgate.internal.limiter;

import io.tollgate.Decision;
import io.tollgate.DeniedKey;
import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.core.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Follows the most denied keys of each rule on this member ({@code tollgate.top-denied}), for operators who alert on
 * who is being denied: every denial the bucket decided (a shadow rule's would-be denials included, the answers of
 * {@code on-store-failure} not) counts its key in the rule's {@link DenialWindow}; an allowed decision is not looked
 * at. The keys are held in clear only here, each rule's at most twice the capacity per stripe, and leave hashed.
 */
public final class TopDenied implements DecisionObserver {

    /** The wall clock to the millisecond, which is all a minute's window needs and costs no allocation. */
    public static final Clock WALL_CLOCK = () -> System.currentTimeMillis() * 1_000;
    /** Most stripes per rule. */
    static final int MAX_STRIPES = 16;

    private final Map<String, DenialWindow> windows = new HashMap<>();
    private final Clock clock;

    /**
     * @param capacity keys held per rule, per minute and stripe (at least 1)
     * @param stripes  summaries per rule and minute, rounded up to a power of two, at most {@value #MAX_STRIPES}
     */
    public TopDenied(Iterable<RuleConfig> rules, int capacity, int stripes, Clock clock) {
        if (capacity < 1 || stripes < 1) {
            throw new IllegalArgumentException("capacity " + capacity + " and stripes " + stripes + " must be at least 1");
        }
        int powerOfTwo = Math.min(MAX_STRIPES, Integer.highestOneBit(stripes * 2 - 1));
        for (RuleConfig rule : rules) {
            windows.put(rule.name(), new DenialWindow(capacity, powerOfTwo));
        }
        this.clock = clock;
    }

    /** @return as many stripes as twice the processors, which keeps threads deciding at once mostly on stripes of their own */
    public static int stripesForThisMachine() {
        return 2 * Runtime.getRuntime().availableProcessors();
    }

    @Override
    public void decided(RuleConfig rule, String key, Decision decision, long nanos) {
        if (decision.allowed() && !decision.shadowDenied() || decision.storeUnavailable()) {
            return;
        }
        DenialWindow window = windows.get(rule.name());
        if (window != null) {
            window.add(key, clock.nowMicros());
        }
    }

    @Override
    public void storeFailed(RuleConfig rule, String key, boolean timedOut, Decision decision) {
    }

    /**
     * @return at most {@code limit} of the keys of {@code rule} denied most on this member over the current minute of the
     *         clock and the one before it, most denied first; empty for a rule not followed
     */
    public List<DeniedKey> top(String rule, int limit) {
        DenialWindow window = windows.get(rule);
        return window == null ? List.of() : window.top(clock.nowMicros(), limit);
    }
}
