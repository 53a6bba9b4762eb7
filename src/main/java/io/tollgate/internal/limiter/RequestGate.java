package io.tollgate.internal.limiter;

import io.tollgate.Decision;
import io.tollgate.InvalidCostException;
import io.tollgate.MissingKeyException;
import io.tollgate.RateLimitKeyResolver;
import io.tollgate.internal.config.BucketLimits;
import io.tollgate.internal.config.LiveRule;
import io.tollgate.internal.config.MissingKeyPolicy;
import io.tollgate.internal.config.Mode;
import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.request.CallResult;
import io.tollgate.internal.request.IncomingRequest;
import io.tollgate.internal.request.Refusals;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Applies a list of rules to one request or call. Every key and cost is worked out first, so a bad
 * cost ({@link io.tollgate.InvalidCostException}) charges nothing. The rules are then
 * checked in order; the first enforced denial ends the check (tokens taken by earlier rules stay taken).
 * Rules whose {@code match} does not hold, or whose {@code exempt} does, are skipped, and so are rules with
 * {@code on-missing-key=skip} for a request without a part of their key; {@code on-missing-key=reject} refuses
 * such a request ({@link MissingKeyException}) before anything is charged. A key banned by one of the rules is
 * denied before any rule is charged: a banned client charges nothing. Each bucket is decided by the limits of its key
 * for this request (an override, the limits the request carries, or the rule's), and a stated cost above their smallest
 * burst is refused like one above {@code max-cost}.
 */
public final class RequestGate {

    private final Limiter limiter;
    private final Function<String, RateLimitKeyResolver> resolvers;

    public RequestGate(Limiter limiter, Function<String, RateLimitKeyResolver> resolvers) {
        this.limiter = limiter;
        this.resolvers = resolvers;
    }

    /**
     * @param rules       the rules, in order
     * @param request     the HTTP request, or {@code null} outside one
     * @param method      the method being limited, or {@code null}
     * @param arguments   its arguments, empty if not known
     * @param keyOverride a key from a {@code @RateLimitKey} argument, or {@code null}
     * @return every check made; the last one is the denial, if there was one
     * @throws io.tollgate.InvalidCostException if a cost value is bad and refused
     * @throws MissingKeyException if a part of a rule's key is missing and the rule refuses that
     */
    public List<RuleCheck> check(List<RuleConfig> rules, IncomingRequest request, Method method, Object[] arguments,
            String keyOverride) {
        int n = rules.size();
        LiveRule[] applicable = new LiveRule[n]; // one snapshot of each rule's live part decides its check
        BucketLimits[] limits = new BucketLimits[n];
        String[] keys = new String[n];
        long[] costs = new long[n];
        int count = 0;
        for (RuleConfig rule : rules) {
            if (!rule.appliesTo(request) || (keyOverride == null && skipsMissingKey(rule, request))) {
                continue;
            }
            LiveRule live = rule.live();
            applicable[count] = live;
            keys[count] = keyOverride != null ? keyOverride
                    : rule.key().resolve(rule.name(), request, method, arguments, resolvers);
            limits[count] = live.limits(keys[count], request);
            try {
                costs[count] = live.cost().resolve(request, limits[count].bucket().maxCost());
            } catch (InvalidCostException e) {
                throw e.forRule(rule.name());
            }
            count++;
        }
        for (int i = 0; i < count; i++) {
            Decision banned = limiter.banned(applicable[i], limits[i], keys[i], costs[i]);
            if (banned != null) {
                return List.of(RuleCheck.of(applicable[i], limits[i], keys[i], banned));
            }
        }
        List<RuleCheck> checks = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            RuleCheck check = RuleCheck.of(applicable[i], limits[i], keys[i], limiter.decide(applicable[i], limits[i], keys[i], costs[i]));
            checks.add(check);
            if (!check.decision().allowed()) {
                break;
            }
        }
        return checks;
    }

    /**
     * @return whether {@code rule} does not apply because {@code request} lacks a part of its key
     * @throws MissingKeyException if the rule refuses such requests (a rule in shadow mode never refuses: it skips them)
     */
    private static boolean skipsMissingKey(RuleConfig rule, IncomingRequest request) {
        MissingKeyPolicy policy = rule.onMissingKey();
        if (policy == MissingKeyPolicy.SHARED) {
            return false;
        }
        String missing = rule.key().missingPart(request);
        if (missing != null && policy == MissingKeyPolicy.REJECT && rule.mode() == Mode.ENFORCE) {
            throw Refusals.missingKey(rule.name(), missing, request != null);
        }
        return missing != null;
    }

    /**
     * Settles {@code checks} once the request or call they were made for ended with {@code result}: each one that
     * charged tokens (allowed by the store, not in shadow mode) and whose rule refunds that outcome
     * ({@code charge-on}, {@code refund-on}) gets them back.
     *
     * @return {@code checks}, with the refunded ones reporting their buckets after the refund
     */
    public List<RuleCheck> settle(List<RuleCheck> checks, CallResult result) {
        List<RuleCheck> settled = checks;
        for (int i = 0; i < checks.size(); i++) {
            RuleCheck check = checks.get(i);
            Decision decision = check.decision();
            RuleConfig rule = check.rule();
            if (rule.outcomes().isNone() || !decision.allowed() || decision.storeUnavailable() || decision.shadowDenied()
                    || decision.cost() == 0 || !rule.outcomes().refunds(result)) {
                continue;
            }
            Decision after = limiter.refund(rule, check.bucketLimits(), check.key(), decision.cost());
            if (after != null) {
                if (settled == checks) {
                    settled = new ArrayList<>(checks);
                }
                settled.set(i, check.with(Decisions.refunded(decision, after)));
            }
        }
        return settled;
    }

    /** @return whether a rule of {@code checks} keeps its charge or not by the outcome */
    public static boolean settlesByOutcome(List<RuleCheck> checks) {
        for (RuleCheck check : checks) {
            if (!check.rule().outcomes().isNone()) {
                return true;
            }
        }
        return false;
    }

    /** @return the enforced denial among {@code checks}, or {@code null} if the request may proceed */
    public static RuleCheck denial(List<RuleCheck> checks) {
        if (checks.isEmpty()) {
            return null;
        }
        RuleCheck last = checks.get(checks.size() - 1);
        return last.decision().allowed() ? null : last;
    }
}
