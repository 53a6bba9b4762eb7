package io.tollgate.internal.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The configuration reference page, {@value #PAGE}, made from the property declarations ({@link RuleAttributes},
 * {@link GlobalProperties}: names, defaults, live attributes, and the choices of a choice or a boolean) and the
 * descriptions in {@value #DESCRIPTIONS} (accepted values and meaning). A property without a description, or a
 * description of no property, is a {@link MissingDescriptionsException}.
 */
final class ConfigurationReference {

    static final String PAGE = "docs/reference/configuration.md";
    static final String DESCRIPTIONS = "src/test/resources/io/tollgate/internal/config/configuration-reference.txt";

    private static final Pattern CHOICES = Pattern.compile("must be one of ([\\w-]+(?:, [\\w-]+)*)|must be ([\\w-]+(?: or [\\w-]+)+)");
    private static final String NOT_A_VALUE = "\u0001";

    /** What the descriptions say of one property. */
    record Description(String values, String aliasOf, String meaning) {
    }

    /** Properties the code declares and the descriptions do not describe, or the other way round. */
    static final class MissingDescriptionsException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        MissingDescriptionsException(String message) {
            super(message);
        }
    }

    private ConfigurationReference() {
    }

    /** @return the page, as it must read */
    static String page() {
        return page(descriptions());
    }

    /** @return the page the declarations and these descriptions make */
    static String page(Map<String, Description> descriptions) {
        check(descriptions);
        StringBuilder out = new StringBuilder();
        out.append("""
                # Configuration reference

                <!-- Generated from Tollgate's property declarations and the descriptions in %s; do not edit here. -->

                Tollgate reads its configuration through MicroProfile Config, from any source: `microprofile-config.properties`,
                system properties, environment variables (`TOLLGATE_RULES_SEARCH_RATE=10` for `tollgate.rules.search.rate`).
                Everything is read and validated once, at deployment: **invalid configuration fails the deployment**, listing every
                problem with its property and value (see [Error messages](errors.md)). A property that is not set takes its
                default. The rule attributes marked *live* change at runtime, without a redeployment, when the configuration
                changes (every `tollgate.config.refresh`) or through `RateLimitRules`.

                ### Rules: `tollgate.rules.<name>.<attribute>`

                A rule exists once an annotation names it (`@RateLimited("<name>")`) or the configuration gives it an attribute.
                Every rule needs a `rate` (or `limits`); the other attributes have defaults.

                | Attribute | Default | Accepted values | Live | Meaning |
                |---|---|---|---|---|
                """.formatted(DESCRIPTIONS));
        for (Property<?> attribute : RuleAttributes.ALL) {
            Description description = descriptions.get(attribute.name());
            if (description.aliasOf() != null) {
                continue;
            }
            List<String> names = new ArrayList<>(List.of("`" + attribute.name() + "`"));
            descriptions.forEach((name, other) -> {
                if (attribute.name().equals(other.aliasOf())) {
                    names.add("alias `" + name + "`");
                }
            });
            String title = names.size() == 1 ? names.get(0) : names.get(0) + " (" + String.join(", ", names.subList(1, names.size())) + ")";
            out.append("| ").append(title).append(" | ").append(attribute.documentedDefault()).append(" | ")
                    .append(values(attribute, description)).append(" | ").append(RuleAttributes.LIVE.contains(attribute.name()) ? "live" : "")
                    .append(" | ").append(description.meaning()).append(" |\n");
        }
        out.append("""

                `tollgate.rules=search,upload` may also list rule names, which helps when rules are defined only by
                environment variables.

                Rules in an annotation (`@RateLimited(rate = "2/1h", burst = 3, key = "global")`) define a rule named after the
                element (`com.example.Api.get` for a method, `com.example.Api` for a class); configuration overrides each of
                their attributes.

                ### Global properties

                | Property | Default | Accepted values | Meaning |
                |---|---|---|---|
                """);
        for (Property<?> property : GlobalProperties.ALL) {
            Description description = descriptions.get(property.name());
            out.append("| `").append(property.name()).append("` | ").append(property.documentedDefault()).append(" | ")
                    .append(values(property, description)).append(" | ").append(description.meaning()).append(" |\n");
        }
        return out.toString();
    }

    private static String values(Property<?> property, Description description) {
        Optional<List<String>> choices = choices(property);
        if (choices.isPresent() == (description.values() != null)) {
            throw new MissingDescriptionsException(property.name() + (choices.isPresent()
                    ? ": the page lists its choices from the code; remove its 'values:' line from " + DESCRIPTIONS
                    : ": add a 'values:' line to its description in " + DESCRIPTIONS));
        }
        return choices.map(names -> names.stream().map(name -> "`" + name + "`").collect(Collectors.joining(", ")))
                .orElse(description.values());
    }

    /** @return the choices a choice or a boolean property takes, as its parser names them when it refuses a value */
    static Optional<List<String>> choices(Property<?> property) {
        try {
            property.parser().parse(NOT_A_VALUE);
        } catch (IllegalArgumentException e) {
            Matcher matcher = CHOICES.matcher(String.valueOf(e.getMessage()));
            if (matcher.matches()) {
                return Optional.of(matcher.group(1) != null ? Arrays.asList(matcher.group(1).split(", "))
                        : Arrays.asList(matcher.group(2).split(" or ")));
            }
        }
        return Optional.empty();
    }

    private static void check(Map<String, Description> descriptions) {
        Set<String> declared = new TreeSet<>();
        RuleAttributes.ALL.forEach(attribute -> declared.add(attribute.name()));
        GlobalProperties.ALL.forEach(property -> declared.add(property.name()));
        Set<String> undescribed = new TreeSet<>(declared);
        undescribed.removeAll(descriptions.keySet());
        Set<String> unknown = new TreeSet<>(descriptions.keySet());
        unknown.removeAll(declared);
        List<String> problems = new ArrayList<>();
        if (!undescribed.isEmpty()) {
            problems.add("declared in the code but not described in " + DESCRIPTIONS + ": " + undescribed);
        }
        if (!unknown.isEmpty()) {
            problems.add("described in " + DESCRIPTIONS + " but declared nowhere in the code: " + unknown);
        }
        descriptions.forEach((name, description) -> {
            if (description.aliasOf() != null && !declared.contains(description.aliasOf())) {
                problems.add(name + " is an alias of " + description.aliasOf() + ", which is not declared");
            } else if (description.aliasOf() == null && description.meaning().isBlank()) {
                problems.add(name + " has no meaning in " + DESCRIPTIONS);
            }
        });
        if (!problems.isEmpty()) {
            throw new MissingDescriptionsException(String.join("\n", problems));
        }
    }

    /** @return the descriptions, by property, in the order of the file */
    static Map<String, Description> descriptions() {
        List<String> lines;
        try (InputStream in = ConfigurationReference.class.getResourceAsStream("configuration-reference.txt")) {
            lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, Description> descriptions = new LinkedHashMap<>();
        String name = null;
        String values = null;
        String alias = null;
        List<String> meaning = new ArrayList<>();
        for (String line : lines) {
            if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            if (!Character.isWhitespace(line.charAt(0))) {
                if (name != null) {
                    put(descriptions, name, new Description(values, alias, String.join(" ", meaning)));
                }
                name = line.strip();
                values = null;
                alias = null;
                meaning = new ArrayList<>();
            } else if (line.strip().startsWith("values: ")) {
                values = line.strip().substring("values: ".length());
            } else if (line.strip().startsWith("alias: ")) {
                alias = line.strip().substring("alias: ".length());
            } else {
                meaning.add(line.strip());
            }
        }
        if (name != null) {
            put(descriptions, name, new Description(values, alias, String.join(" ", meaning)));
        }
        return descriptions;
    }

    private static void put(Map<String, Description> descriptions, String name, Description description) {
        if (descriptions.put(name, description) != null) {
            throw new MissingDescriptionsException(name + " is described twice in " + DESCRIPTIONS);
        }
    }
}
