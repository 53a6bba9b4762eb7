package io.tollgate.simulator.engine;

import io.tollgate.Decision;
import io.tollgate.InvalidCostException;
import io.tollgate.MissingKeyException;
import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.config.TollgateConfig;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.http.RetryAfter;
import io.tollgate.internal.limiter.Limiter;
import io.tollgate.internal.limiter.RequestGate;
import io.tollgate.internal.limiter.RuleCheck;
import io.tollgate.internal.request.IncomingRequest;
import io.tollgate.internal.store.InMemoryBucketStore;
import java.util.ArrayList;
import java.util.List;

/**
 * Tollgate's decision path as a deployed application runs it — {@link RequestGate} over the
 * {@link Limiter} over the in-memory store, the rules resolved by Tollgate's configuration reader —
 * on a {@link VirtualClock}. The rules a request meets are those the application binds to every
 * request (in order) and then the rules whose {@code paths} match its path, as the JAX-RS filter
 * does. Buckets are never evicted: the simulation is of decisions, not of memory bounds.
 */
public final class Engine {

    private static final Object[] NO_ARGUMENTS = {};

    private final TollgateConfig config;
    private final List<RuleConfig> applied;
    private final RuleConfig charted;
    private final VirtualClock clock;
    private final InMemoryBucketStore store;
    private final RequestGate gate;
    private final GrantListener grants;

    /** Told of every token a rule charged: the stuff of the bucket invariant. */
    @FunctionalInterface
    public interface GrantListener {
        void granted(RuleConfig rule, String key, long atMicros, long cost);
    }

    /**
     * @param config  the rules, as Tollgate read them
     * @param applied the rules checked on every request, in order (path rules are added by path)
     * @param charted the rule whose bucket the chart draws, or {@code null}
     * @param grants  told of every charge
     */
    public Engine(TollgateConfig config, List<RuleConfig> applied, RuleConfig charted, long startMicros, GrantListener grants) {
        this.config = config;
        this.applied = List.copyOf(applied);
        this.charted = charted;
        this.clock = new VirtualClock(startMicros);
        this.store = new InMemoryBucketStore(clock, Integer.MAX_VALUE);
        this.gate = new RequestGate(new Limiter(store, config.storeTimeout()), name -> {
            throw new IllegalStateException("a key resolver needs the application's code: " + name);
        });
        this.grants = grants;
    }

    public RuleConfig charted() {
        return charted;
    }

    /** @return the rules {@code request} meets, in the order the filter checks them */
    public List<RuleConfig> rulesFor(SimRequest request) {
        List<RuleConfig> rules = applied;
        for (RuleConfig rule : config.pathRules()) {
            if (rule.appliesToPath(request.path()) && !rules.contains(rule)) {
                if (rules == applied) {
                    rules = new ArrayList<>(applied);
                }
                rules.add(rule);
            }
        }
        return rules;
    }

    /** Decides {@code request} at {@code atMicros} (never earlier than the previous one). */
    public Verdict decide(long atMicros, SimRequest request) {
        clock.set(atMicros);
        IncomingRequest incoming = new IncomingRequest(request, config.trustedProxies());
        List<RuleConfig> rules = rulesFor(request);
        String chartKey = chartKey(rules, incoming);
        long before = chartKey == null ? -1 : tokens(charted, chartKey);
        if (rules.isEmpty()) {
            return new Verdict(Verdict.Outcome.ALLOWED, null, 0, before, before);
        }
        List<RuleCheck> checks;
        try {
            checks = gate.check(rules, incoming, null, NO_ARGUMENTS, null);
        } catch (InvalidCostException e) {
            return new Verdict(Verdict.Outcome.BAD_COST, e.rule(), 0, before, before);
        } catch (MissingKeyException e) {
            return new Verdict(Verdict.Outcome.BAD_COST, e.rule(), 0, before, before); // a 400 as well, nothing charged
        }
        Verdict.Outcome outcome = Verdict.Outcome.ALLOWED;
        String rule = null;
        long retryAfter = 0;
        for (RuleCheck check : checks) {
            Decision decision = check.decision();
            if (decision.allowed() && !decision.shadowDenied() && !decision.storeUnavailable()) {
                grants.granted(check.rule(), check.key(), atMicros, decision.cost());
            }
            boolean shadow = decision.shadowDenied();
            if (!decision.allowed() || (shadow && outcome == Verdict.Outcome.ALLOWED)) {
                outcome = decision.allowed() ? Verdict.Outcome.SHADOW_DENIED : Verdict.Outcome.DENIED;
                rule = check.rule().name();
                retryAfter = RetryAfter.seconds(decision, check.key(), config.retryAfterJitter());
            }
        }
        long after = chartKey == null ? -1 : tokens(charted, chartKey);
        return new Verdict(outcome, rule, retryAfter, before, after);
    }

    /** @return the charted rule's bucket key for this request, or {@code null} if that rule does not apply to it */
    private String chartKey(List<RuleConfig> rules, IncomingRequest request) {
        if (charted == null || !rules.contains(charted) || !charted.appliesTo(request)) {
            return null;
        }
        return charted.key().resolve(charted.name(), request, null, NO_ARGUMENTS, null);
    }

    /** @return the bucket key of {@code request} under the charted rule, or {@code null} */
    public String chartKey(SimRequest request) {
        return chartKey(rulesFor(request), new IncomingRequest(request, config.trustedProxies()));
    }

    /** @return what the charted rule charges {@code request} (its default cost if the request's cost is refused), 1 without a charted rule */
    public long chartCost(SimRequest request) {
        if (charted == null) {
            return 1;
        }
        try {
            return charted.cost().resolve(new IncomingRequest(request, config.trustedProxies()));
        } catch (InvalidCostException e) {
            return charted.cost().defaultCost();
        }
    }

    /**
     * Reads a bucket at {@code atMicros} without charging it (a cost of 0, which the engine never writes).
     *
     * @return whole tokens in the bucket's tightest limit
     */
    public long peek(long atMicros, String key) {
        clock.set(atMicros);
        return tokens(charted, key);
    }

    private long tokens(RuleConfig rule, String key) {
        return store.acquireNow(BucketKeys.of(rule.name(), key), rule.bucket(), 0).remaining();
    }
}
