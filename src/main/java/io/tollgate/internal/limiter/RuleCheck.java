package io.tollgate.internal.limiter;

import io.tollgate.Decision;
import io.tollgate.internal.config.BucketLimits;
import io.tollgate.internal.config.LiveRule;
import io.tollgate.internal.config.Mode;
import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.core.Limit;
import java.util.List;

/**
 * One rule applied to one request: the rule, the snapshot of its live part that decided, the bucket key it used,
 * and what it decided.
 */
public final class RuleCheck {

    private final LiveRule live;
    private final BucketLimits limits;
    private final String key;
    private final Decision decision;

    /** @return the check of {@code rule} (as its live part stands now) for {@code key} that decided {@code decision} */
    public static RuleCheck of(RuleConfig rule, String key, Decision decision) {
        LiveRule live = rule.live();
        return new RuleCheck(live, live.limits(key), key, decision);
    }

    /** @return the check that {@code live}, a snapshot of a rule's live part, decided for {@code key} */
    public static RuleCheck of(LiveRule live, String key, Decision decision) {
        return new RuleCheck(live, live.limits(key), key, decision);
    }

    /** @return the check that {@code live} decided for {@code key} by {@code limits}, the limits of the key for its request */
    public static RuleCheck of(LiveRule live, BucketLimits limits, String key, Decision decision) {
        return new RuleCheck(live, limits, key, decision);
    }

    private RuleCheck(LiveRule live, BucketLimits limits, String key, Decision decision) {
        this.live = live;
        this.limits = limits;
        this.key = key;
        this.decision = decision;
    }

    public RuleConfig rule() {
        return live.rule();
    }

    /** @return the limits that decided: the key's override, else the request's own, else the rule's, as they stood for this check */
    public List<Limit> limits() {
        return limits.limits();
    }

    /** @return the limits that decided, as the bucket definition sent to the store: a refund goes to the same bucket */
    public BucketLimits bucketLimits() {
        return limits;
    }

    /** @return this check with {@code other} as its decision (the bucket after a refund) */
    public RuleCheck with(Decision other) {
        return new RuleCheck(live, limits, key, other);
    }

    /** @return the rule's mode as it stood for this check */
    public Mode mode() {
        return live.mode();
    }

    /** @return the bucket key within the rule (the client's identity, as far as the rule knows it) */
    public String key() {
        return key;
    }

    public Decision decision() {
        return decision;
    }
}
