package io.tollgate.internal.cdi;

import io.tollgate.Decision;
import io.tollgate.RateLimitBanLifted;
import io.tollgate.RateLimitBanned;
import io.tollgate.RateLimitDenied;
import io.tollgate.RateLimitReset;
import io.tollgate.RateLimitRuleChanged;
import io.tollgate.RateLimitStoreFailed;
import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.limiter.DecisionObserver;
import jakarta.enterprise.inject.spi.BeanManager;
import java.time.Instant;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Fires the application's events: a {@link RateLimitDenied} for each denial and shadow denial, a
 * {@link RateLimitStoreFailed} for each decision the store did not answer, a {@link RateLimitBanned} for each
 * ban this member started, a {@link RateLimitReset} for each reset and a {@link RateLimitBanLifted} for each ban lifted by
 * an operator on this member. Allowed decisions cost a test;
 * the key is hashed only for an event that is fired.
 */
final class CdiEvents implements DecisionObserver {

    /** Events of the types, by which observers are found: only their classes matter. */
    private static final Decision SAMPLE = Decision.builder("sample").allowed(false).build();

    private final ObservedEvent<RateLimitDenied> denials;
    private final ObservedEvent<RateLimitStoreFailed> storeFailures;
    private final ObservedEvent<RateLimitBanned> bans;
    private final ObservedEvent<RateLimitReset> resets;
    private final ObservedEvent<RateLimitBanLifted> lifts;

    private CdiEvents(ObservedEvent<RateLimitDenied> denials, ObservedEvent<RateLimitStoreFailed> storeFailures,
            ObservedEvent<RateLimitBanned> bans, ObservedEvent<RateLimitReset> resets, ObservedEvent<RateLimitBanLifted> lifts) {
        this.denials = denials;
        this.storeFailures = storeFailures;
        this.bans = bans;
        this.resets = resets;
        this.lifts = lifts;
    }

    /** @return the events the application observes; {@link DecisionObserver#NONE} if it observes none */
    static DecisionObserver of(BeanManager beans) {
        ObservedEvent<RateLimitDenied> denials = ObservedEvent.of(beans, RateLimitDenied.class,
                new RateLimitDenied(SAMPLE.rule(), "", SAMPLE, Instant.EPOCH));
        ObservedEvent<RateLimitStoreFailed> storeFailures = ObservedEvent.of(beans, RateLimitStoreFailed.class,
                new RateLimitStoreFailed(SAMPLE.rule(), "", RateLimitStoreFailed.Cause.ERROR, SAMPLE, Instant.EPOCH));
        ObservedEvent<RateLimitBanned> bans = ObservedEvent.of(beans, RateLimitBanned.class,
                new RateLimitBanned(SAMPLE.rule(), "", Instant.EPOCH, Instant.EPOCH));
        ObservedEvent<RateLimitReset> resets = ObservedEvent.of(beans, RateLimitReset.class,
                new RateLimitReset(SAMPLE.rule(), "", false, Instant.EPOCH));
        ObservedEvent<RateLimitBanLifted> lifts = ObservedEvent.of(beans, RateLimitBanLifted.class,
                new RateLimitBanLifted(SAMPLE.rule(), "", Instant.EPOCH));
        return denials.observed() || storeFailures.observed() || bans.observed() || resets.observed() || lifts.observed()
                ? new CdiEvents(denials, storeFailures, bans, resets, lifts)
                : DecisionObserver.NONE;
    }

    /** @return what tells the application of each rule change, if it observes them */
    static Consumer<RateLimitRuleChanged> ruleChanges(BeanManager beans) {
        ObservedEvent<RateLimitRuleChanged> changes = ObservedEvent.of(beans, RateLimitRuleChanged.class, new RateLimitRuleChanged(
                SAMPLE.rule(), Map.of(), RateLimitRuleChanged.Source.API, "", null, "", Instant.EPOCH));
        return changes.observed() ? changes::fire : change -> { };
    }

    @Override
    public void decided(RuleConfig rule, String key, Decision decision, long nanos) {
        if ((decision.allowed() && !decision.shadowDenied()) || !denials.observed()) {
            return;
        }
        denials.fire(new RateLimitDenied(rule.name(), BucketKeys.hash(key), decision, Instant.now()));
    }

    @Override
    public void storeFailed(RuleConfig rule, String key, boolean timedOut, Decision decision) {
        if (storeFailures.observed()) {
            storeFailures.fire(new RateLimitStoreFailed(rule.name(), BucketKeys.hash(key),
                    timedOut ? RateLimitStoreFailed.Cause.TIMEOUT : RateLimitStoreFailed.Cause.ERROR, decision, Instant.now()));
        }
    }

    @Override
    public void banned(RuleConfig rule, String key, Instant until) {
        if (bans.observed()) {
            bans.fire(new RateLimitBanned(rule.name(), BucketKeys.hash(key), until, Instant.now()));
        }
    }

    @Override
    public void reset(RuleConfig rule, String key, boolean found) {
        if (resets.observed()) {
            resets.fire(new RateLimitReset(rule.name(), BucketKeys.hash(key), found, Instant.now()));
        }
    }

    @Override
    public void banLifted(RuleConfig rule, String key) {
        if (lifts.observed()) {
            lifts.fire(new RateLimitBanLifted(rule.name(), BucketKeys.hash(key), Instant.now()));
        }
    }
}
