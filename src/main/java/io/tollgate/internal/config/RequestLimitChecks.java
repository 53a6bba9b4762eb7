package io.tollgate.internal.config;

import static io.tollgate.internal.config.RuleAttributes.LIMITS_FROM;
import static io.tollgate.internal.config.RuleAttributes.MAX_LIMIT;

import io.tollgate.internal.core.Limit;
import io.tollgate.internal.request.LimitsSource;
import io.tollgate.internal.request.TrustedGateways;
import java.util.Optional;

/**
 * The checks across the attributes of limits taken from requests: {@code limits-from} needs {@code max-limit} and
 * {@code max-limit} goes only with it; a header is believed only from trusted gateways, so some must be configured
 * (the trusted proxies do not count: a load balancer trusted to name the client may pass the client's headers
 * through); the rule's own limits (what a request without limits gets) lie within the bound, which so grants the
 * rule's max-cost.
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
     * @param gateways whose header is believed, {@code null} if their property was refused (and so reported)
     * @param proxies  whether {@code tollgate.trusted-proxies} names any, for the hint to an upgrade that relied on them
     */
    static void apply(RuleConfig rule, Draft draft, TrustedGateways gateways, boolean proxies, ConfigProblems problems) {
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
        if (draft.bound() == null || draft.source().isHeader() && gateways == null) {
            return; // refused, and so reported
        }
        int before = problems.count();
        if (draft.source().isHeader() && gateways.isEmpty()) {
            problems.invalid(property(name, LIMITS_FROM), draft.sourceText().orElse(""), "a header is believed only from the "
                    + "gateways " + GlobalProperties.TRUSTED_GATEWAYS.name() + " names, and it names none; set it to the "
                    + "address of the layer that sets the header on every request (an API gateway, the application's TCP peer), "
                    + "or use jwt:<claim>" + (proxies ? "; " + GlobalProperties.TRUSTED_PROXIES.name() + " does not count: it "
                    + "decides whose forwarding header names the client, and a proxy that passes the client's headers through "
                    + "would let the client pick its own limits" : ""));
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
            TrustedGateways believed = gateways == null ? TrustedGateways.NONE : gateways; // a claim needs none
            RequestLimits limits = new RequestLimits(draft.source(), believed, draft.bound(), rule.cost().defaultCost());
            rule.live(rule.live().withRequestLimits(limits));
        }
    }

    private static String property(String rule, Property<?> attribute) {
        return RuleDraft.property(rule, attribute.name());
    }
}
