package io.tollgate.internal.limiter;

import io.tollgate.Decision;
import io.tollgate.RateLimitKeyResolver;
import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.request.IncomingRequest;
import io.tollgate.internal.request.InvalidCostException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Applies a list of rules to one request or call. Every key and cost is worked out first, so a bad
 * cost ({@link io.tollgate.internal.request.InvalidCostException}) charges nothing. The rules are then
 * checked in order; the first enforced denial ends the check (tokens taken by earlier rules stay taken).
 * Rules whose {@code match} does not hold are skipped. A key banned by one of the rules is denied before any
 * rule is charged: a banned client charges nothing.
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
     * @throws io.tollgate.internal.request.InvalidCostException if a cost value is bad and refused
     */
    public List<RuleCheck> check(List<RuleConfig> rules, IncomingRequest request, Method method, Object[] arguments,
            String keyOverride) {
        int n = rules.size();
        RuleConfig[] applicable = new RuleConfig[n];
        String[] keys = new String[n];
        long[] costs = new long[n];
        int count = 0;
        for (RuleConfig rule : rules) {
            if (!rule.match().matches(request)) {
                continue;
            }
            applicable[count] = rule;
            keys[count] = keyOverride != null ? keyOverride
                    : rule.key().resolve(rule.name(), request, method, arguments, resolvers);
            try {
                costs[count] = rule.cost().resolve(request);
            } catch (InvalidCostException e) {
                throw e.forRule(rule.name());
            }
            count++;
        }
        for (int i = 0; i < count; i++) {
            Decision banned = limiter.banned(applicable[i], keys[i], costs[i]);
            if (banned != null) {
                return List.of(RuleCheck.of(applicable[i], keys[i], banned));
            }
        }
        List<RuleCheck> checks = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            RuleCheck check = RuleCheck.of(applicable[i], keys[i], limiter.check(applicable[i], keys[i], costs[i]));
            checks.add(check);
            if (!check.decision().allowed()) {
                break;
            }
        }
        return checks;
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
