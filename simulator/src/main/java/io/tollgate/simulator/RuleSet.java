package io.tollgate.simulator;

import io.tollgate.internal.config.CommaList;
import io.tollgate.internal.config.ConfigReader;
import io.tollgate.internal.config.InvalidConfigurationException;
import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.config.Settings;
import io.tollgate.internal.config.TollgateConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The rules of a scenario or a replay: the {@code tollgate.*} properties, read and validated by
 * Tollgate's own configuration reader (so a bad rule gets the message a deployment would get), and
 * which of them every request meets.
 *
 * <ul>
 * <li>{@code simulation.rules}: the rules every request meets, in order, as if they were on the one
 * resource method all requests reach; default: every rule without {@code paths}. Rules with
 * {@code paths} apply to requests whose path matches, after those.</li>
 * <li>{@code simulation.chart-rule}: the rule whose bucket the chart draws; default: the first of them.</li>
 * </ul>
 *
 * @param config  Tollgate's configuration
 * @param applied the rules every request meets
 * @param charted the rule whose bucket is drawn
 */
public record RuleSet(TollgateConfig config, List<RuleConfig> applied, RuleConfig charted) {

    public static final String RULES = "simulation.rules";
    public static final String CHART_RULE = "simulation.chart-rule";

    /**
     * @param properties every property, {@code tollgate.*} and others (only {@code tollgate.*} reach Tollgate)
     * @return the rules, or {@code null} if there were problems (then in {@code problems})
     */
    public static RuleSet read(Map<String, String> properties, InputProblems problems) {
        Map<String, String> tollgate = properties.entrySet().stream().filter(e -> e.getKey().startsWith(ConfigReader.PREFIX))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        Settings settings = Settings.of(tollgate);
        TollgateConfig config;
        try {
            config = ConfigReader.read(settings, List.of());
        } catch (InvalidConfigurationException e) {
            problems.rules(e.getMessage(), e.problems());
            return null;
        }
        if (config.rules().isEmpty()) {
            problems.missing("tollgate.rules.<name>.rate", "no rule to apply; define one, e.g. tollgate.rules.api.rate=10");
            return null;
        }
        List<RuleConfig> applied = new ArrayList<>();
        String listed = properties.get(RULES);
        if (listed != null) {
            for (String name : CommaList.items(listed)) {
                RuleConfig rule = config.rule(name);
                if (rule == null) {
                    problems.add(RULES, listed, "no rule '" + name + "'; the rules are " + String.join(", ", config.rules().keySet()));
                } else if (!applied.contains(rule)) {
                    applied.add(rule);
                }
            }
        } else {
            config.rules().values().stream().filter(r -> r.paths().isEmpty()).forEach(applied::add);
        }
        for (RuleConfig rule : config.rules().values()) {
            if ((applied.contains(rule) || !rule.paths().isEmpty()) && !rule.key().resolverClasses().isEmpty()) {
                problems.add("tollgate.rules." + rule.name() + ".key", rule.key().toString(),
                        "a key resolver is application code, which a simulation cannot run; use a key the request carries");
            }
        }
        RuleConfig charted = null;
        String chartRule = properties.get(CHART_RULE);
        if (chartRule != null) {
            charted = config.rule(chartRule.trim());
            if (charted == null) {
                problems.add(CHART_RULE, chartRule, "no such rule; the rules are " + String.join(", ", config.rules().keySet()));
            }
        } else {
            charted = !applied.isEmpty() ? applied.get(0) : config.pathRules().isEmpty() ? null : config.pathRules().get(0);
        }
        return problems.isEmpty() ? new RuleSet(config, applied, charted) : null;
    }
}
