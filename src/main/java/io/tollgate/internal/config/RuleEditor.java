package io.tollgate.internal.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Works out a rule's live part anew, as a deployment would: from the configuration as it reads now, with the
 * attributes an operator changed at runtime laid over it, through the same reader and checks, so a bad change
 * is refused whole with the deployment's messages. Only the live attributes ({@code rate}, {@code burst},
 * {@code limits}, {@code mode}, {@code on-store-failure}, {@code overrides}, {@code max-limit}) may change: one of any other
 * in the overlay is refused, since the bindings, keys and path matching were resolved from it at deployment. One of
 * them changed in the configuration since the deployment (edited for the next release) keeps its deployed value and
 * is pending ({@link #pending}): it freezes none of the live attributes.
 */
public final class RuleEditor {

    private static final Set<String> RATE_OR_BURST = Set.of(RuleAttributes.RATE.name(), RuleAttributes.TOKENS_PER_SECOND.name(),
            RuleAttributes.BURST.name());

    private final Settings configuration;
    private final TollgateConfig config;
    private final Map<String, RuleDefaults> annotations = new HashMap<>();
    /** Per rule, the text of each attribute that is not live as the deployment read it. */
    private final Map<String, Map<String, Optional<String>>> deployed = new HashMap<>();

    /**
     * @param configuration the configuration, read anew at each change
     * @param annotations   what annotations say about rules
     * @param config        the configuration as deployed, whose rules change
     */
    public RuleEditor(Settings configuration, Collection<RuleDefaults> annotations, TollgateConfig config) {
        this.configuration = configuration;
        this.config = config;
        for (RuleDefaults annotation : annotations) {
            this.annotations.put(annotation.name(), annotation);
        }
        for (String rule : config.rules().keySet()) {
            deployed.put(rule, fixedTexts(rule));
        }
    }

    /** @return whether {@code attribute} is one a running application changes */
    public static boolean isLive(String attribute) {
        return RuleAttributes.LIVE.contains(attribute);
    }

    /** @return the live attributes, in the order of the configuration tables */
    public static List<String> liveAttributes() {
        return RuleAttributes.names().stream().filter(RuleEditor::isLive).toList();
    }

    /**
     * @param rule    a deployed rule
     * @param overlay attributes (by name, as {@code tollgate.rules.<rule>.<attribute>} would give them) set at runtime
     * @return the live part the rule has with {@code overlay} over the configuration as it reads now
     * @throws InvalidConfigurationException listing every problem, as a deployment would
     * @throws IllegalArgumentException if there is no such rule
     */
    public LiveRule resolve(String rule, Map<String, String> overlay) {
        if (config.rule(rule) == null) {
            throw new IllegalArgumentException("rule = '" + rule + "': no such rule; configured rules are " + config.rules().keySet());
        }
        ConfigProblems problems = new ConfigProblems();
        for (Map.Entry<String, String> attribute : overlay.entrySet()) {
            String property = RuleDraft.property(rule, attribute.getKey());
            if (!RuleAttributes.names().contains(attribute.getKey())) {
                problems.invalid(property, attribute.getValue(), "unknown rule attribute '" + attribute.getKey() + "'; known ones are "
                        + String.join(", ", RuleAttributes.names()));
            } else if (!isLive(attribute.getKey())) {
                problems.invalid(property, attribute.getValue(), notLive(attribute.getKey()));
            }
        }
        RuleConfig fresh = new RuleReader(overlaid(rule, overlay), config.trustedGateways(), problems, rule,
                annotations.getOrDefault(rule, new RuleDefaults(rule))).read();
        problems.throwIfAny();
        return fresh.live();
    }

    /**
     * @return a line for each attribute of {@code rule} that is not live and reads otherwise in the configuration than
     *         the deployment read it: it keeps its deployed value until the next deployment
     */
    public List<String> pending(String rule) {
        List<String> lines = new ArrayList<>();
        Map<String, Optional<String>> now = fixedTexts(rule);
        deployed.getOrDefault(rule, Map.of()).forEach((attribute, text) -> {
            if (!text.equals(now.get(attribute))) {
                lines.add(RuleDraft.property(rule, attribute) + " = '" + now.get(attribute).orElse("(not set)") + "': "
                        + notLive(attribute) + "; until then the rule keeps " + text.map(t -> "'" + t + "'").orElse("it unset")
                        + ", as deployed, and its live attributes go on changing");
            }
        });
        return lines;
    }

    /** Gives {@code rule} its new live part (from {@link #resolve}), whole. */
    public void apply(RuleConfig rule, LiveRule live) {
        rule.live(live);
    }

    /**
     * @return the {@code overrides} text that gives {@code key} the limits {@code limits} (checked when the change is
     *         resolved) and keeps the other overrides of {@code live}
     */
    public static String withOverride(LiveRule live, String key, String limits) {
        if (limits == null || limits.indexOf(';') >= 0 || limits.indexOf('=') >= 0) {
            throw new IllegalArgumentException("limits = '" + limits + "': not limits; use <rate> [burst <n>], comma-separated, "
                    + "e.g. 1000/1s or 10/s burst 20, 1000/1h");
        }
        String others = Overrides.format(without(live, key));
        return (others.isEmpty() ? "" : others + "; ") + Overrides.encode(key) + "=" + limits;
    }

    /** @return the {@code overrides} text of {@code live} without {@code key}'s */
    public static String withoutOverride(LiveRule live, String key) {
        if (!live.overrides().containsKey(key)) {
            throw new IllegalArgumentException("key = '" + key + "': rule '" + live.rule().name() + "' has no override for it");
        }
        return Overrides.format(without(live, key));
    }

    private static Map<String, BucketLimits> without(LiveRule live, String key) {
        Map<String, BucketLimits> others = new LinkedHashMap<>(live.overrides());
        others.remove(key);
        return others;
    }

    private static String notLive(String attribute) {
        return "'" + attribute + "' cannot change while the application runs (only " + String.join(", ", liveAttributes())
                + " can); it takes effect at the next deployment";
    }

    private Map<String, Optional<String>> fixedTexts(String rule) {
        Map<String, Optional<String>> texts = new LinkedHashMap<>();
        for (String attribute : RuleAttributes.names()) {
            if (!isLive(attribute)) {
                texts.put(attribute, configuration.get(RuleDraft.property(rule, attribute)));
            }
        }
        return texts;
    }

    /**
     * @return the configuration with {@code overlay} over {@code rule}'s attributes, and the attributes that are not live
     *         as the deployment read them; a rate or burst laid over it hides its {@code limits}, and {@code limits}
     *         hides its rate and burst, as a redeployment with them would have to
     */
    private Settings overlaid(String rule, Map<String, String> overlay) {
        Map<String, Optional<String>> fixed = deployed.get(rule);
        String prefix = RuleDraft.property(rule, "");
        boolean limits = overlay.containsKey(RuleAttributes.LIMITS.name());
        boolean rateOrBurst = overlay.keySet().stream().anyMatch(RATE_OR_BURST::contains);
        boolean rate = overlay.containsKey(RuleAttributes.RATE.name()) || overlay.containsKey(RuleAttributes.TOKENS_PER_SECOND.name());
        return new Settings() {
            @Override
            public Optional<String> get(String name) {
                if (!name.startsWith(prefix) || name.indexOf('.', prefix.length()) >= 0) {
                    return configuration.get(name);
                }
                String attribute = name.substring(prefix.length());
                if (overlay.containsKey(attribute)) {
                    return Optional.of(overlay.get(attribute));
                }
                if (fixed.containsKey(attribute)) {
                    return fixed.get(attribute);
                }
                boolean hidden = limits && RATE_OR_BURST.contains(attribute)
                        || rateOrBurst && attribute.equals(RuleAttributes.LIMITS.name())
                        || rate && (attribute.equals(RuleAttributes.RATE.name()) || attribute.equals(RuleAttributes.TOKENS_PER_SECOND.name()));
                return hidden ? Optional.empty() : configuration.get(name);
            }

            @Override
            public Iterable<String> names() {
                List<String> names = new ArrayList<>();
                configuration.names().forEach(names::add);
                return names;
            }
        };
    }
}
