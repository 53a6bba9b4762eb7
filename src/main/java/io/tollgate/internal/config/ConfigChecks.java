package io.tollgate.internal.config;

import static io.tollgate.internal.config.RuleAttributes.BURST;
import static io.tollgate.internal.config.RuleAttributes.COST;
import static io.tollgate.internal.config.RuleAttributes.DEFAULT_COST;
import static io.tollgate.internal.config.RuleAttributes.LIMITS;
import static io.tollgate.internal.config.RuleAttributes.MAX_COST;
import static io.tollgate.internal.config.RuleAttributes.MIN_COST;

import io.tollgate.internal.core.InvalidDefinitionException;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.request.CostSpec;
import io.tollgate.internal.request.OutcomeCharging;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The checks that weigh one property against another: a rule's rate, burst and limits, its costs
 * against its bounds and burst, annotations that disagree, a client without a cluster name. Each
 * property on its own is read by its table ({@link RuleAttributes}, {@link GlobalProperties}).
 */
final class ConfigChecks {

    private ConfigChecks() {
    }

    /**
     * Reports each attribute that annotations give different values, unless configuration sets it.
     *
     * @param configured whether configuration sets an attribute (by name) of the rule
     */
    static void disagreements(String rule, RuleDefaults annotation, Predicate<String> configured, ConfigProblems problems) {
        for (RuleDefaults.Conflict conflict : annotation.conflicts()) {
            if (!configured.test(conflict.attribute())) {
                problems.add(new ConfigProblem.Disagreement(RuleDraft.property(rule, conflict.attribute()), conflict));
            }
        }
    }

    /** @return the rule the draft makes; only valid if no problem was added */
    static RuleConfig rule(RuleDraft draft, ConfigProblems problems) {
        List<Limit> limits = limits(draft, problems);
        // the costs are checked even without limits: a bad one there is a mistake all the same
        CostSpec cost = cost(draft, limits.stream().mapToLong(Limit::burst).min().orElse(Long.MAX_VALUE), problems);
        BanRule ban = BanChecks.ban(draft, problems);
        return limits.isEmpty() || cost == null ? null : new RuleConfig(draft.name(), limits, draft.key(), cost, draft.match(), draft.paths(),
                draft.mode(), draft.onStoreFailure(), draft.exempt(), draft.onMissingKey(), ban,
                OutcomeCharging.of(draft.chargeOn(), draft.refundOn()));
    }

    /** @return the rule's limits: its {@code limits}, or one of its rate and burst; empty if there are problems */
    static List<Limit> limits(RuleDraft draft, ConfigProblems problems) {
        if (draft.limitsText().isPresent()) {
            if (draft.rateConfigured() || draft.burstText().isPresent()) {
                problems.invalid(draft.property(LIMITS), draft.limitsText().get(), "set either limits or rate/burst, not both");
                return List.of();
            }
            return draft.limits();
        }
        if (!draft.rateGiven()) {
            problems.missing(draft.property(RuleAttributes.RATE), "rule '" + draft.name() + "'" + usedBy(draft.annotation())
                    + " needs a rate (or limits); " + Syntax.RATE_HELP);
            return List.of();
        }
        if (draft.rate().isEmpty()) {
            return List.of(); // refused, and so reported
        }
        if (draft.burstText().isEmpty() && draft.burst() < 0) {
            problems.invalid(draft.property(BURST), Long.toString(draft.burst()),
                    "must be at least 1 (from the annotation" + usedBy(draft.annotation()) + ")");
            return List.of();
        }
        try {
            return List.of(Syntax.limit(draft.rate(), draft.burst()));
        } catch (InvalidDefinitionException e) {
            if (e.field().equals("burst")) {
                problems.invalid(draft.property(BURST), draft.burstText().orElse(Long.toString(draft.burst())), e.reason());
            } else {
                problems.invalid(draft.rateProperty(), draft.rate(), e.reason());
            }
        } catch (IllegalArgumentException e) {
            problems.invalid(draft.rateProperty(), draft.rate(), e.getMessage());
        }
        return List.of();
    }

    /**
     * @param smallestBurst the smallest burst of the rule's limits, which no cost may exceed
     * @return the rule's cost, within its bounds; {@code null} if there are problems
     */
    static CostSpec cost(RuleDraft draft, long smallestBurst, ConfigProblems problems) {
        long minCost = draft.minCost();
        long maxCost = draft.maxCost() == null ? smallestBurst : draft.maxCost();
        if (maxCost > smallestBurst) {
            problems.invalid(draft.property(MAX_COST), Long.toString(maxCost), "exceeds the burst " + smallestBurst
                    + ", so such a cost could never be granted");
        }
        if (minCost > maxCost) {
            problems.invalid(draft.property(MIN_COST), Long.toString(minCost), "exceeds max-cost " + maxCost);
        }
        String costText = draft.cost();
        String between = "must be between min-cost " + minCost + " and max-cost " + maxCost;
        Optional<Long> fixed = fixedCost(costText);
        if (fixed.isPresent()) {
            if (fixed.get() < minCost || fixed.get() > maxCost) {
                problems.invalid(draft.property(COST), costText, between
                        + (fixed.get() > smallestBurst ? " (the burst is " + smallestBurst + ")" : ""));
                return null;
            }
            return CostSpec.fixed(fixed.get(), minCost, maxCost);
        }
        long defaultCost = draft.defaultCost();
        if (minCost <= maxCost && (defaultCost < minCost || defaultCost > maxCost)) {
            problems.invalid(draft.property(DEFAULT_COST), Long.toString(defaultCost), between);
        }
        try {
            return CostSpec.fromRequest(costText, defaultCost, minCost, maxCost,
                    draft.onInvalidCost() == RuleAttributes.OnInvalidCost.REJECT);
        } catch (IllegalArgumentException e) {
            problems.invalid(draft.property(COST), costText, e.getMessage());
            return null;
        }
    }

    /**
     * Gives {@code rule} its per-key overrides, each of which must grant the rule's largest cost, as its own limits do.
     *
     * @param property the rule's {@code overrides} property, for a problem line
     * @param text     its value
     */
    static void overrides(RuleConfig rule, String property, String text, Map<String, List<Limit>> overrides, ConfigProblems problems) {
        long maxCost = rule.cost().maxCost();
        Map<String, BucketLimits> buckets = new LinkedHashMap<>();
        for (Map.Entry<String, List<Limit>> override : overrides.entrySet()) {
            BucketLimits limits = BucketLimits.of(override.getValue());
            long smallestBurst = limits.bucket().maxCost();
            if (smallestBurst < maxCost) {
                problems.invalid(property, text, "key '" + Overrides.encode(override.getKey()) + "': the burst " + smallestBurst
                        + " is below the rule's max-cost " + maxCost + ", so such a cost could never be granted to it");
            }
            buckets.put(override.getKey(), limits);
        }
        rule.live(rule.live().withOverrides(buckets));
    }

    /** @return the cost if {@code text} is a whole number (one too large for a long lies outside any bounds) */
    private static Optional<Long> fixedCost(String text) {
        String cost = text.trim();
        if (!cost.matches("-?\\d+")) {
            return Optional.empty();
        }
        try {
            return Optional.of(Long.parseLong(cost));
        } catch (NumberFormatException e) {
            return Optional.of(cost.startsWith("-") ? Long.MIN_VALUE : Long.MAX_VALUE);
        }
    }

    /** A client of an external cluster must name it: Tollgate's own default name is no external cluster's. */
    static void clientHasClusterName(List<String> clientAddresses, Optional<String> clientConfig, Optional<String> clusterName,
            ConfigProblems problems) {
        if (!clientAddresses.isEmpty() && clientConfig.isEmpty() && clusterName.isEmpty()) {
            problems.missing(GlobalProperties.CLUSTER_NAME.name(), "a client to an external cluster ("
                    + GlobalProperties.CLIENT_ADDRESSES.name() + ") needs that cluster's name; Tollgate's own default name is "
                    + "private to one OS user on one host, and no external cluster has it");
        }
    }

    /**
     * Members on other hosts must share a configured cluster name: without one, each host's embedded member takes the
     * name private to its own OS user there, the members never find each other, and each host limits alone.
     *
     * @param membersText the member list as configured, for the problem line
     */
    static void otherHostsHaveClusterName(List<String> members, Optional<String> serviceDns, Optional<String> clusterName,
            Optional<String> memberConfig, String membersText, ConfigProblems problems) {
        if (clusterName.isPresent() || memberConfig.isPresent()) {
            return;
        }
        if (serviceDns.isPresent()) {
            problems.missing(GlobalProperties.CLUSTER_NAME.name(), "members found through "
                    + GlobalProperties.KUBERNETES_SERVICE_DNS.name() + " = '" + serviceDns.get() + "' run on other hosts, and "
                    + "the name Tollgate makes up without one is private to one OS user on one host: each host would limit "
                    + "alone. Give every instance the same cluster name (it is the cluster's shared secret)");
            return;
        }
        List<String> elsewhere = members.stream().filter(member -> !HostAddresses.isThisHost(HostAddresses.host(member))).toList();
        if (!elsewhere.isEmpty()) {
            problems.missing(GlobalProperties.CLUSTER_NAME.name(), GlobalProperties.MEMBERS.name() + " = '" + membersText
                    + "' names " + String.join(", ", elsewhere) + ", not on this host, and the name Tollgate makes up without one "
                    + "is private to one OS user on one host: each host would limit alone. Give every instance the same "
                    + "cluster name (it is the cluster's shared secret)");
        }
    }

    /** A cluster of several members, or a quorum, means nothing for the in-memory store, which is this JVM alone. */
    static void clusterOnAStoreOfOneMember(ClusterSettings cluster, StoreType store, ConfigProblems problems) {
        if (store != StoreType.MEMORY) {
            return;
        }
        if (cluster.minMembers() > 1) {
            problems.invalid(GlobalProperties.MIN_MEMBERS.name(), Integer.toString(cluster.minMembers()),
                    "tollgate.store=memory keeps the buckets in this JVM alone, one member");
        }
        if (cluster.quorum() > 1) {
            problems.invalid(GlobalProperties.QUORUM.name(), Integer.toString(cluster.quorum()),
                    "tollgate.store=memory keeps the buckets in this JVM alone, one member");
        }
    }

    /** The admin resource answers only callers in a role, which must be named: there is no safe default. */
    static void adminHasRole(AdminSettings admin, ConfigProblems problems) {
        if (admin.enabled() && admin.role().isEmpty()) {
            problems.missing(GlobalProperties.ADMIN_ROLE.name(), "the admin resource (" + GlobalProperties.ADMIN_ENABLED.name()
                    + "=true) answers only authenticated callers in this role; name the role your operators have");
        }
        String role = admin.role().orElse("");
        if (role.equals("**")) {
            problems.invalid(GlobalProperties.ADMIN_ROLE.name(), role, "'**' stands for every authenticated user in Jakarta "
                    + "Security and Servlet, which would let any user reset buckets and lift bans; name the role your operators have");
        } else if (role.equals("*")) {
            problems.invalid(GlobalProperties.ADMIN_ROLE.name(), role, "'*' is no role a caller can be in (isUserInRole(\"*\") is "
                    + "false), so nobody could use the admin resource; name the role your operators have");
        }
    }

    private static String usedBy(RuleDefaults annotation) {
        return annotation.usedBy().isEmpty() ? "" : " (used by " + String.join(", ", annotation.usedBy()) + ")";
    }
}
