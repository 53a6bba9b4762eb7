package io.tollgate.internal.config;

import io.tollgate.internal.core.Limit;
import io.tollgate.internal.request.ExemptSpec;
import io.tollgate.internal.request.KeySpec;
import io.tollgate.internal.request.MatchSpec;
import io.tollgate.internal.request.OutcomeSpec;
import io.tollgate.internal.request.PathPattern;
import java.util.List;
import java.util.Optional;

/**
 * One rule's attributes, each read on its own (from configuration, else the annotations, else the
 * default), before {@link ConfigChecks} weighs them against each other.
 *
 * @param name          the rule
 * @param annotation    what the annotations say of it
 * @param rateProperty  the property the rate was given as ({@code rate} or its alias)
 * @param rateConfigured whether configuration gives a rate (rather than the annotations, or nothing)
 * @param rateGiven     whether a rate is given, in configuration or annotations (and not blank)
 * @param rate          the rate's text; empty if none is given, or if it is refused
 * @param burstText     the burst as configured, if it is
 * @param burst         the burst, 0 for the default one
 * @param limitsText    the limits as configured, if they are
 * @param limits        those limits
 * @param cost          the cost's text: a whole number or a source in the request
 * @param exempt        the conditions that exempt a request from the rule
 * @param onMissingKey  what a request without a part of the key gets
 * @param ban           the ban attributes
 * @param chargeOn      the outcomes that keep the charge, or {@code null} for every one
 * @param refundOn      the outcomes that are refunded, or {@code null} for none
 */
record RuleDraft(String name, RuleDefaults annotation, String rateProperty, boolean rateConfigured, boolean rateGiven,
        String rate, Optional<String> burstText, long burst,
        Optional<String> limitsText, List<Limit> limits, KeySpec key, String cost, long defaultCost, long minCost, Long maxCost,
        RuleAttributes.OnInvalidCost onInvalidCost, MatchSpec match, List<PathPattern> paths, Mode mode,
        StoreFailurePolicy onStoreFailure, ExemptSpec exempt, MissingKeyPolicy onMissingKey,
        BanChecks.Draft ban, OutcomeSpec chargeOn, OutcomeSpec refundOn) {

    /** @return the full name of the rule's property for {@code attribute} */
    String property(Property<?> attribute) {
        return property(name, attribute.name());
    }

    static String property(String rule, String attribute) {
        return ConfigReader.RULES + "." + rule + "." + attribute;
    }
}
