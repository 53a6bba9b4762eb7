package io.tollgate.internal.config;

import static io.tollgate.internal.config.RuleAttributes.LIMITS_FROM;
import static io.tollgate.internal.config.RuleAttributes.MAX_LIMIT;

import io.tollgate.internal.core.Limit;
import io.tollgate.internal.request.LimitsSource;
import java.util.Optional;

/**
 * The checks across the attributes of limits taken from requests: {@code limits-from} needs {@code max-limit} and
 * {@code max-limit} goes only with it; a header is believed only from trusted proxies, so some must be configured; the
 * rule's own limits (what a request without limits gets) lie within the bound, which so grants the rule's max-cost.
 */
final class RequestLimitChecks {

    /**
     * A rule's request-limit attributes, each read on its own.
     *
     * @param sourceText {@code limits-from} as configured, if it is
     * @param source     where requests carry their limits, {@code null} for none (or refused)
     * @param boundText  {@code max-limit} as configured, if it is
     * @param bound      the bound, {@code null} if not given (or refused)
     */
    record Draft(Optional<String> sourceText, LimitsSource source, Optional<String> boundText, Limit bound) {
    }

    private RequestLimitChecks() {
    }

    /**
     * Gives {@code rule} its limits from requests, if it takes them and they pass the checks.
     *
     * @param proxies whether {@code tollgate.trusted-proxies} names any
     */
    static void apply(RuleConfig rule, Draft draft, boolean proxies, ConfigProblems problems) {
        String name = rule.name();
        if (draft.source() == null) {
            if (draft.sourceText().isEmpty() && draft.boundText().isPresent() && !draft.boundText().get().isBlank()) {
                problems.invalid(property(name, MAX_LIMIT), draft.boundText().get(), "applies only with " + LIMITS_FROM.name()
                        + ", which rule '" + name + "' does not set");
            }
            return;
        }
        if (draft.boundText().isEmpty() || draft.boundText().get().isBlank()) {
            problems.missing(property(name, MAX_LIMIT), "rule '" + name + "' takes its limits from " + draft.source()
                    + " and needs the most a request may get, one <rate> [burst <n>], e.g. 1000/1s burst 2000");
            return;
        }
        if (draft.bound() == null) {
            return; // refused, and so reported
        }
        int before = problems.count();
        if (draft.source().isHeader() && !proxies) {
            problems.invalid(property(name, LIMITS_FROM), draft.sourceText().orElse(""), "a header is believed only from trusted "
                    + "proxies, and " + GlobalProperties.TRUSTED_PROXIES.name() + " names none; name the layer that sets it "
                    + "(an API gateway), or use jwt:<claim>");
        }
        // within the rule's own limits, whose bursts grant max-cost, the bound grants it too
        for (Limit limit : rule.limits()) {
            if (!RequestLimits.within(limit, draft.bound())) {
                problems.invalid(property(name, MAX_LIMIT), draft.boundText().get(), "below the rule's own limit " + limit
                        + ", which a request without limits gets; the bound must be at least the rule's limits");
                break;
            }
        }
        if (problems.count() == before) {
            rule.live(rule.live().withRequestLimits(new RequestLimits(draft.source(), draft.bound(), rule.cost().defaultCost())));
        }
    }

    private static String property(String rule, Property<?> attribute) {
        return RuleDraft.property(rule, attribute.name());
    }
}
