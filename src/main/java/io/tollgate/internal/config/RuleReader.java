package io.tollgate.internal.config;

import static io.tollgate.internal.config.RuleAttributes.BAN_AFTER;
import static io.tollgate.internal.config.RuleAttributes.BAN_FOR;
import static io.tollgate.internal.config.RuleAttributes.BAN_STATUS;
import static io.tollgate.internal.config.RuleAttributes.BURST;
import static io.tollgate.internal.config.RuleAttributes.CHARGE_ON;
import static io.tollgate.internal.config.RuleAttributes.COST;
import static io.tollgate.internal.config.RuleAttributes.DEFAULT_COST;
import static io.tollgate.internal.config.RuleAttributes.EXEMPT;
import static io.tollgate.internal.config.RuleAttributes.KEY;
import static io.tollgate.internal.config.RuleAttributes.LIMITS;
import static io.tollgate.internal.config.RuleAttributes.LIMITS_FROM;
import static io.tollgate.internal.config.RuleAttributes.MATCH;
import static io.tollgate.internal.config.RuleAttributes.MAX_COST;
import static io.tollgate.internal.config.RuleAttributes.MAX_LIMIT;
import static io.tollgate.internal.config.RuleAttributes.MIN_COST;
import static io.tollgate.internal.config.RuleAttributes.MODE;
import static io.tollgate.internal.config.RuleAttributes.ON_INVALID_COST;
import static io.tollgate.internal.config.RuleAttributes.ON_MISSING_KEY;
import static io.tollgate.internal.config.RuleAttributes.ON_STORE_FAILURE;
import static io.tollgate.internal.config.RuleAttributes.OVERRIDES;
import static io.tollgate.internal.config.RuleAttributes.PATHS;
import static io.tollgate.internal.config.RuleAttributes.RATE;
import static io.tollgate.internal.config.RuleAttributes.REFUND_ON;
import static io.tollgate.internal.config.RuleAttributes.TOKENS_PER_SECOND;

import io.tollgate.internal.core.Limit;
import io.tollgate.internal.request.TrustedGateways;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Reads one rule: each attribute from the table, then the checks across them. */
final class RuleReader {

    private final Settings settings;
    private final TrustedGateways gateways;
    private final ConfigProblems problems;
    private final String name;
    private final RuleDefaults annotation;

    /** @param gateways the trusted gateways, {@code null} if their property was refused (and so reported) */
    RuleReader(Settings settings, TrustedGateways gateways, ConfigProblems problems, String name, RuleDefaults annotation) {
        this.settings = settings;
        this.gateways = gateways;
        this.problems = problems;
        this.name = name;
        this.annotation = annotation;
    }

    /** @return the rule, or {@code null} if it has problems (then in {@code problems}) */
    RuleConfig read() {
        int before = problems.count();
        ConfigChecks.disagreements(name, annotation, this::configured, problems);
        RuleDraft draft = draft();
        RuleConfig rule = ConfigChecks.rule(draft, problems);
        Map<String, List<Limit>> overrides = read(OVERRIDES, "");
        if (rule != null && !overrides.isEmpty()) {
            ConfigChecks.overrides(rule, draft.property(OVERRIDES), configured(OVERRIDES).orElse(""), overrides, problems);
        }
        RequestLimitChecks.Draft fromRequest = new RequestLimitChecks.Draft(configured(LIMITS_FROM), read(LIMITS_FROM, ""),
                configured(MAX_LIMIT), read(MAX_LIMIT, ""));
        if (rule != null) {
            boolean proxies = !settings.get(GlobalProperties.TRUSTED_PROXIES.name()).orElse("").isBlank();
            RequestLimitChecks.apply(rule, fromRequest, gateways, proxies, problems);
        }
        return problems.count() > before ? null : rule;
    }

    private RuleDraft draft() {
        Optional<String> limitsText = configured(LIMITS);
        boolean fromAnnotation = limitsText.isEmpty(); // configured limits replace the annotations' rate and burst
        Property<String> rateAttribute = configured(RATE).isEmpty() && configured(TOKENS_PER_SECOND).isPresent() ? TOKENS_PER_SECOND : RATE;
        boolean rateConfigured = configured(rateAttribute).isPresent();
        String annotationRate = fromAnnotation ? annotation.rate() : "";
        boolean rateGiven = !configured(rateAttribute).orElse(annotationRate).isBlank();
        String rate = read(rateAttribute, annotationRate);
        Optional<String> burstText = configured(BURST);
        long burst = burstText.isPresent() ? read(BURST, "") : fromAnnotation ? annotation.burst() : 0;
        return new RuleDraft(name, annotation, RuleDraft.property(name, rateAttribute.name()), rateConfigured, rateGiven, rate, burstText, burst,
                limitsText, read(LIMITS, ""), read(KEY, annotation.key()), read(COST, annotation.cost()), read(DEFAULT_COST, ""),
                read(MIN_COST, ""), read(MAX_COST, ""), read(ON_INVALID_COST, ""), read(MATCH, ""), read(PATHS, ""), read(MODE, ""),
                read(ON_STORE_FAILURE, ""), read(EXEMPT, ""), read(ON_MISSING_KEY, ""),
                new BanChecks.Draft(configured(BAN_AFTER), read(BAN_AFTER, ""),
                        configured(BAN_FOR), read(BAN_FOR, ""), configured(BAN_STATUS), read(BAN_STATUS, "")),
                read(CHARGE_ON, ""), read(REFUND_ON, ""));
    }

    /** @return the attribute as configured, else as the annotations give it (if they do), else its default */
    private <T> T read(Property<T> attribute, String annotationText) {
        Optional<String> text = configured(attribute).or(() -> Optional.of(annotationText).filter(s -> !s.isEmpty()));
        return attribute.read(RuleDraft.property(name, attribute.name()), text, problems);
    }

    private Optional<String> configured(Property<?> attribute) {
        return settings.get(RuleDraft.property(name, attribute.name()));
    }

    /** @return whether configuration sets {@code attribute} of the rule, settling what annotations say of it */
    private boolean configured(String attribute) {
        boolean limits = configured(LIMITS).isPresent();
        switch (attribute) {
            case "rate":
                return limits || configured(RATE).isPresent() || configured(TOKENS_PER_SECOND).isPresent();
            case "burst":
                return limits || configured(BURST).isPresent();
            default:
                return settings.get(RuleDraft.property(name, attribute)).isPresent();
        }
    }
}
