package io.tollgate.internal.limiter;

import io.tollgate.Decision;
import io.tollgate.internal.config.RuleConfig;

/** One rule applied to one request: the rule, the bucket key it used, and what it decided. */
public final class RuleCheck {

    private final RuleConfig rule;
    private final String key;
    private final Decision decision;

    /** @return the check of {@code rule} for {@code key} that decided {@code decision} */
    public static RuleCheck of(RuleConfig rule, String key, Decision decision) {
        return new RuleCheck(rule, key, decision);
    }

    private RuleCheck(RuleConfig rule, String key, Decision decision) {
        this.rule = rule;
        this.key = key;
        this.decision = decision;
    }

    public RuleConfig rule() {
        return rule;
    }

    /** @return the bucket key within the rule (the client's identity, as far as the rule knows it) */
    public String key() {
        return key;
    }

    public Decision decision() {
        return decision;
    }
}
