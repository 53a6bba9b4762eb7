package io.tollgate.simulator.traffic;

import io.tollgate.internal.config.ConfigReader;
import io.tollgate.simulator.InputProblems;
import io.tollgate.simulator.RuleSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/**
 * Reads a scenario: Tollgate's rules ({@code tollgate.*}, validated by Tollgate), how they apply
 * ({@code simulation.rules}, {@code simulation.chart-rule}, see {@link RuleSet}), the run
 * ({@code simulation.seed}, {@code simulation.title}) and the clients
 * ({@code client.<name>.<attribute>}, one lane each, in file order). Every problem is reported at
 * once, naming the property and its value.
 */
public final class ScenarioReader {

    static final String SEED = "simulation.seed";
    static final String TITLE = "simulation.title";
    static final List<String> GLOBALS = List.of(RuleSet.RULES, RuleSet.CHART_RULE, SEED, TITLE);
    static final List<String> CLIENT_ATTRIBUTES = List.of("phases", "arrivals", "count", "cost", "cost-header", "cost-query",
            "ip", "path", "principal", "header.<name>", "query.<name>", "claim.<name>");
    /** The most requests one run may be expected to make: enough for days of busy traffic, bounded all the same. */
    static final double MAX_REQUESTS = 20_000_000;
    private static final int MAX_COUNT = 100_000;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]+");
    private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

    private final Map<String, String> properties;
    private final InputProblems problems = new InputProblems();

    private ScenarioReader(Map<String, String> properties) {
        this.properties = properties;
    }

    /**
     * @param properties the scenario's properties, in file order
     * @throws io.tollgate.simulator.InvalidInputException listing every problem
     */
    public static Scenario read(Map<String, String> properties) {
        return new ScenarioReader(properties).read();
    }

    private Scenario read() {
        Map<String, Map<String, String>> clients = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : properties.entrySet()) {
            String property = e.getKey();
            if (property.startsWith(ConfigReader.PREFIX)) {
                continue;
            }
            if (property.startsWith("simulation.")) {
                if (!GLOBALS.contains(property)) {
                    problems.add(property, e.getValue(), "unknown property; known ones are " + String.join(", ", GLOBALS));
                }
                continue;
            }
            if (property.startsWith("client.")) {
                String rest = property.substring("client.".length());
                int dot = rest.indexOf('.');
                if (dot <= 0 || !NAME.matcher(rest.substring(0, dot)).matches()) {
                    problems.add(property, e.getValue(), "not a client property; use client.<name>.<attribute> with a name of "
                            + "letters, digits, '_' and '-'");
                    continue;
                }
                clients.computeIfAbsent(rest.substring(0, dot), k -> new LinkedHashMap<>()).put(rest.substring(dot + 1), e.getValue());
                continue;
            }
            problems.add(property, e.getValue(), "unknown property; a scenario has tollgate.*, simulation.* and client.<name>.* properties");
        }
        RuleSet rules = RuleSet.read(properties, problems);
        long seed = seed();
        List<ClientModel> models = new ArrayList<>();
        int index = 0;
        for (Map.Entry<String, Map<String, String>> client : clients.entrySet()) {
            ClientModel model = client(client.getKey(), index++, client.getValue());
            if (model != null) {
                models.add(model);
            }
        }
        if (clients.isEmpty()) {
            problems.missing("client.<name>.phases", "no client sends anything; e.g. client.web.phases=steady 60s 8/s");
        }
        double expected = 0;
        for (ClientModel model : models) {
            double perClient = 0;
            for (Phase phase : model.phases()) {
                perClient += phase.expected(phase.durationMicros());
            }
            expected += perClient * model.count();
        }
        if (expected > MAX_REQUESTS) {
            problems.add("client.*.phases", String.format("%.0f requests", expected),
                    "too many for one run (at most " + (long) MAX_REQUESTS + "); shorten the phases or lower the rates");
        }
        problems.throwIfAny("traffic model");
        String title = properties.getOrDefault(TITLE, "Simulated traffic").trim();
        return new Scenario(rules.config(), rules.applied(), rules.charted(), models, seed, title);
    }

    private long seed() {
        String text = properties.get(SEED);
        if (text == null) {
            return ThreadLocalRandom.current().nextLong(1L << 48);
        }
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            problems.add(SEED, text, "not a whole number");
            return 0;
        }
    }

    private ClientModel client(String name, int index, Map<String, String> attributes) {
        String p = "client." + name + ".";
        boolean ok = true;
        List<Phase> phases = new ArrayList<>();
        Map<String, Draw> headers = new LinkedHashMap<>();
        Map<String, Draw> query = new LinkedHashMap<>();
        Map<String, Draw> claims = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : attributes.entrySet()) {
            String attribute = e.getKey();
            boolean known = List.of("phases", "arrivals", "count", "cost", "cost-header", "cost-query", "ip", "path", "principal")
                    .contains(attribute);
            for (String prefix : List.of("header.", "query.", "claim.")) {
                if (attribute.startsWith(prefix)) {
                    String field = attribute.substring(prefix.length());
                    if (!TOKEN.matcher(field).matches()) {
                        problems.add(p + attribute, e.getValue(), "'" + field + "' is not a " + prefix.substring(0, prefix.length() - 1) + " name");
                        ok = false;
                    } else {
                        Draw draw = draw(p + attribute, e.getValue());
                        Map<String, Draw> target = prefix.equals("header.") ? headers : prefix.equals("query.") ? query : claims;
                        if (draw != null) {
                            target.put(field, draw);
                        } else {
                            ok = false;
                        }
                    }
                    known = true;
                }
            }
            if (!known) {
                problems.add(p + attribute, e.getValue(), "unknown client attribute '" + attribute + "'; known ones are "
                        + String.join(", ", CLIENT_ATTRIBUTES));
                ok = false;
            }
        }
        String phaseText = attributes.get("phases");
        if (phaseText == null || phaseText.isBlank()) {
            problems.missing(p + "phases", "client '" + name + "' needs phases; " + Phase.HELP);
            ok = false;
        } else {
            for (String item : phaseText.split(",")) {
                if (item.isBlank()) {
                    continue;
                }
                try {
                    phases.add(Phase.parse(item));
                } catch (IllegalArgumentException e) {
                    problems.add(p + "phases", phaseText, e.getMessage());
                    ok = false;
                }
            }
        }
        Arrivals.Spacing spacing = Arrivals.Spacing.POISSON;
        if (attributes.containsKey("arrivals")) {
            try {
                spacing = Arrivals.Spacing.parse(attributes.get("arrivals"));
            } catch (IllegalArgumentException e) {
                problems.add(p + "arrivals", attributes.get("arrivals"), e.getMessage());
                ok = false;
            }
        }
        int count = 1;
        if (attributes.containsKey("count")) {
            try {
                count = Integer.parseInt(attributes.get("count").trim());
                if (count < 1 || count > MAX_COUNT) {
                    problems.add(p + "count", attributes.get("count"), "must be between 1 and " + MAX_COUNT);
                    ok = false;
                }
            } catch (NumberFormatException e) {
                problems.add(p + "count", attributes.get("count"), "not a whole number");
                ok = false;
            }
        }
        Draw cost = attributes.containsKey("cost") ? draw(p + "cost", attributes.get("cost")) : Draw.of("1");
        if (cost != null && !cost.wholeNumbers(0)) {
            problems.add(p + "cost", attributes.get("cost"), "a cost is a whole number of at least 0 (fixed, uniform:<min>..<max> or choice:...)");
            ok = false;
        }
        String costHeader = name(p + "cost-header", attributes.get("cost-header"));
        String costQuery = name(p + "cost-query", attributes.get("cost-query"));
        Draw ip = attributes.containsKey("ip") ? draw(p + "ip", attributes.get("ip")) : null;
        Draw path = draw(p + "path", attributes.getOrDefault("path", "/"));
        Draw principal = attributes.containsKey("principal") ? draw(p + "principal", attributes.get("principal")) : null;
        if (!ok || cost == null || path == null || (attributes.containsKey("ip") && ip == null)
                || (attributes.containsKey("principal") && principal == null)
                || (attributes.containsKey("cost-header") && costHeader == null) || (attributes.containsKey("cost-query") && costQuery == null)) {
            return null;
        }
        return new ClientModel(name, index, count, phases, spacing, cost, costHeader, costQuery, ip, path, principal, headers, query, claims);
    }

    private Draw draw(String property, String text) {
        try {
            return Draw.parse(text);
        } catch (IllegalArgumentException e) {
            problems.add(property, text, e.getMessage());
            return null;
        }
    }

    private String name(String property, String text) {
        if (text == null) {
            return null;
        }
        if (!TOKEN.matcher(text.trim()).matches()) {
            problems.add(property, text, "not a header or parameter name");
            return null;
        }
        return text.trim();
    }
}
