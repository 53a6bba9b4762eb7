package io.tollgate.internal.config;

import io.tollgate.internal.core.InvalidDefinitionException;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.request.CostSpec;
import io.tollgate.internal.request.IncomingRequest;
import io.tollgate.internal.request.KeySpec;
import io.tollgate.internal.request.MatchSpec;
import io.tollgate.internal.request.PathPattern;
import io.tollgate.internal.request.TrustedProxies;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Reads and validates every {@code tollgate.*} property once, reporting all problems together.
 * Rules are those named in properties ({@code tollgate.rules.<name>.<attribute>}), in the list
 * {@code tollgate.rules} (handy with environment variables), or in annotations.
 */
public final class ConfigReader {

    public static final String PREFIX = "tollgate.";
    public static final String RULES = "tollgate.rules";
    private static final String RULE_PREFIX = RULES + ".";
    private static final Pattern HOST_PORT = Pattern.compile("[^\\s:,]+(?::(\\d{1,5}))?");
    private static final Pattern RULE_NAME = Pattern.compile("[A-Za-z0-9_$][A-Za-z0-9_.$-]*");
    private static final Pattern IPV4_PART = Pattern.compile("\\d{1,3}(-\\d{1,3})?");

    static final List<String> RULE_ATTRIBUTES = List.of("rate", "tokens-per-second", "burst", "limits", "key", "cost",
            "default-cost", "min-cost", "max-cost", "on-invalid-cost", "match", "paths", "mode", "on-store-failure");

    static final String HEADERS = "tollgate.headers";
    static final String JITTER = "tollgate.retry-after.jitter";
    static final String TRUSTED_PROXIES = "tollgate.trusted-proxies";
    static final String FORWARDED_HEADER = "tollgate.trusted-proxies.header";
    static final String IPV6_PREFIX = "tollgate.key.ipv6-prefix";
    static final String STORE = "tollgate.store";
    static final String STORE_TIMEOUT = "tollgate.store.timeout";
    static final String MEMORY_MAX_ENTRIES = "tollgate.memory.max-entries";
    static final String DENIAL_CACHE = "tollgate.denial-cache";
    static final String DENIAL_CACHE_MAX_ENTRIES = "tollgate.denial-cache.max-entries";
    /** Read by the CDI extension before the rest, to decide whether the metrics exist. */
    public static final String METRICS = "tollgate.metrics";
    /** Read by the CDI extension before the rest, to decide whether the readiness check exists. */
    public static final String HEALTH = "tollgate.health";
    static final String HZ = "tollgate.hazelcast.";
    static final List<String> GLOBALS = List.of(HEADERS, JITTER, TRUSTED_PROXIES, FORWARDED_HEADER, IPV6_PREFIX, STORE, STORE_TIMEOUT, MEMORY_MAX_ENTRIES,
            DENIAL_CACHE, DENIAL_CACHE_MAX_ENTRIES, METRICS, HEALTH,
            HZ + "map", HZ + "max-entries-per-member", HZ + "backup-count", HZ + "jndi-name", HZ + "client.addresses",
            HZ + "client.config", HZ + "cluster-name", HZ + "config", HZ + "interface", HZ + "port", HZ + "members",
            HZ + "serialization", HZ + "coalescing");

    static final Duration DEFAULT_STORE_TIMEOUT = Duration.ofMillis(250);
    static final Duration MAX_STORE_TIMEOUT = Duration.ofSeconds(60);

    private final Settings settings;
    private final Problems problems = new Problems();

    private ConfigReader(Settings settings) {
        this.settings = settings;
    }

    /**
     * @param settings   the properties
     * @param annotations what annotations say about rules, by rule name
     * @return the configuration
     * @throws InvalidConfigurationException listing every problem, each with its property and value
     */
    public static TollgateConfig read(Settings settings, Collection<RuleDefaults> annotations) {
        return new ConfigReader(settings).read(annotations);
    }

    private TollgateConfig read(Collection<RuleDefaults> annotations) {
        Map<String, RuleDefaults> defaults = new TreeMap<>();
        for (RuleDefaults d : annotations) {
            defaults.put(d.name(), d);
        }
        Set<String> names = new TreeSet<>(defaults.keySet());
        names.addAll(ruleNamesFromProperties());
        settings.get(RULES).ifPresent(list -> {
            for (String name : list.split(",")) {
                if (!name.isBlank()) {
                    names.add(name.trim());
                }
            }
        });
        Map<String, RuleConfig> rules = new TreeMap<>();
        for (String name : names) {
            if (!RULE_NAME.matcher(name).matches()) {
                problems.add(RULES, name, "'" + name + "' is not a rule name; use letters, digits, '.', '_', '-' and '$'");
                continue;
            }
            RuleConfig rule = rule(name, defaults.getOrDefault(name, new RuleDefaults(name)));
            if (rule != null) {
                rules.put(name, rule);
            }
        }
        TollgateConfig config = new TollgateConfig(rules,
                choice(HEADERS, HeaderStyle.IETF, HeaderStyle.values()),
                jitter(),
                trustedProxies(),
                (int) whole(IPV6_PREFIX, IncomingRequest.DEFAULT_IPV6_PREFIX, 1, 128),
                choice(STORE, StoreType.HAZELCAST, StoreType.values()),
                storeTimeout(),
                (int) whole(MEMORY_MAX_ENTRIES, 100_000, 1, Integer.MAX_VALUE),
                hazelcast(),
                bool(DENIAL_CACHE, true),
                (int) whole(DENIAL_CACHE_MAX_ENTRIES, 100_000, 1, Integer.MAX_VALUE),
                bool(METRICS, true),
                bool(HEALTH, true));
        problems.throwIfAny();
        return config;
    }

    private Set<String> ruleNamesFromProperties() {
        Set<String> names = new TreeSet<>();
        for (String property : settings.names()) {
            if (!property.startsWith(PREFIX) || property.equals(RULES)) {
                continue;
            }
            if (!property.startsWith(RULE_PREFIX)) {
                if (!GLOBALS.contains(property)) {
                    problems.add(property, settings.get(property).orElse(""), "unknown property; known ones are "
                            + RULE_PREFIX + "<name>.<attribute> and " + String.join(", ", GLOBALS));
                }
                continue;
            }
            String rest = property.substring(RULE_PREFIX.length());
            int dot = rest.lastIndexOf('.');
            if (dot <= 0) {
                problems.add(property, settings.get(property).orElse(""), "not a rule property; use " + RULE_PREFIX + "<name>.<attribute>");
                continue;
            }
            String attribute = rest.substring(dot + 1);
            if (!RULE_ATTRIBUTES.contains(attribute)) {
                problems.add(property, settings.get(property).orElse(""), "unknown rule attribute '" + attribute
                        + "'; known ones are " + String.join(", ", RULE_ATTRIBUTES));
                continue;
            }
            names.add(rest.substring(0, dot));
        }
        return names;
    }

    private RuleConfig rule(String name, RuleDefaults annotation) {
        String p = RULE_PREFIX + name + ".";
        for (String conflict : annotation.conflicts()) {
            if (configured(p, conflict.substring(0, conflict.indexOf(':')))) {
                continue; // configuration overrides every annotation
            }
            problems.add(p + conflict.substring(0, conflict.indexOf(':')), null,
                    "annotations disagree (" + conflict.substring(conflict.indexOf(':') + 2) + "); set it in configuration or make them agree");
        }
        int before = problemCount();
        List<Limit> limits = limits(name, p, annotation);
        long smallestBurst = limits.stream().mapToLong(Limit::burst).min().orElse(Long.MAX_VALUE);

        KeySpec key = parse(p + "key", value(p + "key", annotation.key(), "ip"), KeySpec::parse);
        long minCost = whole(p + "min-cost", 1, 0, Long.MAX_VALUE);
        long maxCost = whole(p + "max-cost", smallestBurst == Long.MAX_VALUE ? Long.MAX_VALUE : smallestBurst, 1, Long.MAX_VALUE);
        if (maxCost > smallestBurst) {
            problems.add(p + "max-cost", Long.toString(maxCost), "exceeds the burst " + smallestBurst + ", so such a cost could never be granted");
        }
        if (minCost > maxCost) {
            problems.add(p + "min-cost", Long.toString(minCost), "exceeds max-cost " + maxCost);
        }
        boolean reject = choice(p + "on-invalid-cost", "reject", "reject", "default").equals("reject");
        String costText = value(p + "cost", annotation.cost(), "1");
        CostSpec cost = null;
        if (costText.trim().matches("-?\\d+")) {
            long fixed;
            try {
                fixed = Syntax.parseLong(costText, "cost");
            } catch (IllegalArgumentException e) {
                fixed = costText.trim().startsWith("-") ? Long.MIN_VALUE : Long.MAX_VALUE; // outside any range
            }
            if (fixed < minCost || fixed > maxCost) {
                problems.add(p + "cost", costText, "must be between min-cost " + minCost + " and max-cost " + maxCost
                        + (fixed > smallestBurst ? " (the burst is " + smallestBurst + ")" : ""));
            } else {
                cost = CostSpec.fixed(fixed, minCost, maxCost);
            }
        } else {
            long defaultCost = whole(p + "default-cost", 1, 0, Long.MAX_VALUE);
            if (minCost <= maxCost && (defaultCost < minCost || defaultCost > maxCost)) {
                problems.add(p + "default-cost", Long.toString(defaultCost), "must be between min-cost " + minCost + " and max-cost " + maxCost);
            }
            cost = parse(p + "cost", costText, t -> CostSpec.fromRequest(t, defaultCost, minCost, maxCost, reject));
        }
        MatchSpec match = parse(p + "match", value(p + "match", "", ""), MatchSpec::parse);
        List<PathPattern> paths = new ArrayList<>();
        String pathText = value(p + "paths", "", "");
        if (!pathText.isBlank()) {
            for (String glob : pathText.split(",")) {
                if (glob.isBlank()) {
                    continue;
                }
                PathPattern pattern = parse(p + "paths", glob.trim(), PathPattern::parse);
                if (pattern != null) {
                    paths.add(pattern);
                }
            }
        }
        Mode mode = choice(p + "mode", Mode.ENFORCE, Mode.values());
        StoreFailurePolicy onFailure = choice(p + "on-store-failure", StoreFailurePolicy.ALLOW, StoreFailurePolicy.values());
        if (problemCount() > before || limits.isEmpty()) {
            return null;
        }
        return new RuleConfig(name, limits, key, cost, match, paths, mode, onFailure);
    }

    private List<Limit> limits(String name, String p, RuleDefaults annotation) {
        Optional<String> rate = settings.get(p + "rate").or(() -> settings.get(p + "tokens-per-second"));
        Optional<String> limitsText = settings.get(p + "limits");
        Optional<String> burstText = settings.get(p + "burst");
        List<Limit> limits = new ArrayList<>();
        if (limitsText.isPresent()) {
            if (rate.isPresent() || burstText.isPresent()) {
                problems.add(p + "limits", limitsText.get(), "set either limits or rate/burst, not both");
                return limits;
            }
            if (limitsText.get().isBlank()) {
                problems.add(p + "limits", limitsText.get(), "empty; give one or more <rate> [burst <n>], comma-separated");
            }
            for (String item : limitsText.get().split(",")) {
                if (item.isBlank()) {
                    continue;
                }
                try {
                    limits.add(Syntax.limitItem(item));
                } catch (InvalidDefinitionException e) {
                    problems.add(p + "limits", limitsText.get(), "'" + item.trim() + "': " + e.field() + " " + reasonOf(e));
                } catch (IllegalArgumentException e) {
                    problems.add(p + "limits", limitsText.get(), "'" + item.trim() + "': " + e.getMessage());
                }
            }
            return limits;
        }
        String rateText = rate.orElse(annotation.rate());
        String rateProperty = settings.get(p + "rate").isPresent() || !settings.get(p + "tokens-per-second").isPresent()
                ? p + "rate" : p + "tokens-per-second";
        if (rateText.isBlank()) {
            problems.missing(p + "rate", "rule '" + name + "'" + usedBy(annotation) + " needs a rate (or limits); "
                    + Syntax.RATE_HELP);
            return limits;
        }
        long burst = annotation.burst();
        if (burstText.isPresent()) {
            try {
                burst = Syntax.parseLong(burstText.get(), "burst");
                if (burst < 1) {
                    problems.add(p + "burst", burstText.get(), "must be at least 1");
                    return limits;
                }
            } catch (IllegalArgumentException e) {
                problems.add(p + "burst", burstText.get(), "not a whole number");
                return limits;
            }
        } else if (burst < 0) {
            problems.add(p + "burst", Long.toString(burst), "must be at least 1 (from the annotation" + usedBy(annotation) + ")");
            return limits;
        }
        try {
            limits.add(Syntax.limit(rateText, burst));
        } catch (InvalidDefinitionException e) {
            String property = e.field().equals("burst") ? p + "burst" : rateProperty;
            String value = e.field().equals("burst") ? burstText.orElse(Long.toString(burst)) : rateText;
            problems.add(property, value, reasonOf(e));
        } catch (IllegalArgumentException e) {
            problems.add(rateProperty, rateText, e.getMessage());
        }
        return limits;
    }

    private static String reasonOf(InvalidDefinitionException e) {
        String message = e.getMessage();
        int colon = message.indexOf(": ");
        return colon < 0 ? message : message.substring(colon + 2);
    }

    private static String usedBy(RuleDefaults annotation) {
        return annotation.usedBy().isEmpty() ? "" : " (used by " + String.join(", ", annotation.usedBy()) + ")";
    }

    private String value(String property, String annotationValue, String fallback) {
        return settings.get(property).orElse(annotationValue == null || annotationValue.isEmpty() ? fallback : annotationValue);
    }

    private <T> T parse(String property, String text, java.util.function.Function<String, T> parser) {
        try {
            return parser.apply(text);
        } catch (IllegalArgumentException e) {
            problems.add(property, text, e.getMessage());
            return null;
        }
    }

    private long whole(String property, long fallback, long min, long max) {
        Optional<String> text = settings.get(property);
        if (text.isEmpty()) {
            return fallback;
        }
        try {
            long value = Long.parseLong(text.get().trim());
            if (value < min || value > max) {
                problems.add(property, text.get(), max == Long.MAX_VALUE ? "must be at least " + min
                        : "must be between " + min + " and " + max);
                return fallback;
            }
            return value;
        } catch (NumberFormatException e) {
            problems.add(property, text.get(), "not a whole number");
            return fallback;
        }
    }

    private String choice(String property, String fallback, String... allowed) {
        Optional<String> text = settings.get(property);
        if (text.isEmpty()) {
            return fallback;
        }
        String value = text.get().trim().toLowerCase(Locale.ROOT);
        if (!Arrays.asList(allowed).contains(value)) {
            problems.add(property, text.get(), "must be one of " + String.join(", ", allowed));
            return fallback;
        }
        return value;
    }

    private <E extends Enum<E>> E choice(String property, E fallback, E[] values) {
        String[] names = new String[values.length];
        for (int i = 0; i < values.length; i++) {
            names[i] = values[i].name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
        String chosen = choice(property, fallback.name().toLowerCase(Locale.ROOT).replace('_', '-'), names);
        return values[Arrays.asList(names).indexOf(chosen)];
    }

    private boolean bool(String property, boolean fallback) {
        return choice(property, fallback ? "true" : "false", "true", "false").equals("true");
    }

    private double jitter() {
        Optional<String> text = settings.get(JITTER);
        if (text.isEmpty()) {
            return 0.5;
        }
        try {
            BigDecimal value = new BigDecimal(text.get().trim());
            if (value.signum() < 0 || value.compareTo(BigDecimal.ONE) > 0) {
                problems.add(JITTER, text.get(), "must be between 0 and 1 (a fraction of the wait)");
                return 0.5;
            }
            return value.doubleValue();
        } catch (NumberFormatException e) {
            problems.add(JITTER, text.get(), "not a number between 0 and 1");
            return 0.5;
        }
    }

    private TrustedProxies trustedProxies() {
        // checked even without proxies: a bad value there is a mistake all the same
        TrustedProxies.Header header = choice(FORWARDED_HEADER, TrustedProxies.Header.X_FORWARDED_FOR, TrustedProxies.Header.values());
        Optional<String> text = settings.get(TRUSTED_PROXIES);
        if (text.isEmpty() || text.get().isBlank()) {
            return TrustedProxies.NONE;
        }
        TrustedProxies proxies = parse(TRUSTED_PROXIES, text.get(), t -> TrustedProxies.parse(Arrays.asList(t.split(","))));
        return proxies == null ? TrustedProxies.NONE : proxies.withHeader(header);
    }

    private Duration storeTimeout() {
        Optional<String> text = settings.get(STORE_TIMEOUT);
        if (text.isEmpty()) {
            return DEFAULT_STORE_TIMEOUT;
        }
        Duration timeout = parse(STORE_TIMEOUT, text.get(), Syntax::duration);
        if (timeout != null && (timeout.isZero() || timeout.isNegative() || timeout.compareTo(MAX_STORE_TIMEOUT) > 0)) {
            problems.add(STORE_TIMEOUT, text.get(), "must be more than 0 and at most 60s");
            return DEFAULT_STORE_TIMEOUT;
        }
        return timeout == null ? DEFAULT_STORE_TIMEOUT : timeout;
    }

    private HazelcastSettings hazelcast() {
        List<String> clientAddresses = list(HZ + "client.addresses");
        List<String> members = list(HZ + "members");
        if (members.isEmpty()) {
            members = List.of("127.0.0.1:5701", "127.0.0.1:5702", "127.0.0.1:5703");
        }
        for (String member : members) {
            if (!isHostAndPort(member)) {
                problems.add(HZ + "members", String.join(",", members), "'" + member + "' is not host or host:port");
            }
        }
        for (String address : clientAddresses) {
            if (!isHostAndPort(address)) {
                problems.add(HZ + "client.addresses", String.join(",", clientAddresses), "'" + address + "' is not host or host:port");
            }
        }
        String jndi = settings.get(HZ + "jndi-name").orElse("payara/Hazelcast").trim();
        String bindInterface = settings.get(HZ + "interface").map(String::trim).filter(s -> !s.isEmpty()).orElse("127.0.0.1");
        if (!isInterface(bindInterface)) {
            problems.add(HZ + "interface", settings.get(HZ + "interface").orElse(""),
                    "not an IP address or interface pattern; use e.g. 127.0.0.1, 10.0.0.*, 10.0.0.10-20 or fd00::1");
        }
        return new HazelcastSettings(
                settings.get(HZ + "map").map(String::trim).filter(s -> !s.isEmpty()).orElse("tollgate-buckets"),
                (int) whole(HZ + "max-entries-per-member", 1_000_000, 1, Integer.MAX_VALUE),
                (int) whole(HZ + "backup-count", 1, 1, 6),
                jndi.isEmpty() ? Optional.empty() : Optional.of(jndi),
                clientAddresses,
                configFile(HZ + "client.config"),
                settings.get(HZ + "cluster-name").map(String::trim).filter(s -> !s.isEmpty()).orElse("tollgate"),
                configFile(HZ + "config"),
                bindInterface,
                (int) whole(HZ + "port", 5701, 1, 65535),
                members,
                choice(HZ + "serialization", HazelcastSettings.Serialization.AUTO, HazelcastSettings.Serialization.values()),
                bool(HZ + "coalescing", true));
    }

    /** @return the Hazelcast configuration file named by {@code property}, if any; Hazelcast reads YAML or XML */
    private Optional<String> configFile(String property) {
        Optional<String> path = settings.get(property).map(String::trim).filter(s -> !s.isEmpty());
        if (path.isPresent()) {
            String lower = path.get().toLowerCase(Locale.ROOT);
            if (!lower.endsWith(".yaml") && !lower.endsWith(".yml") && !lower.endsWith(".xml")) {
                problems.add(property, settings.get(property).get(), "not a Hazelcast configuration file; name a .yaml, .yml or .xml file");
                return Optional.empty();
            }
        }
        return path;
    }

    /**
     * @return whether {@code text} is what Hazelcast takes as an interface: an IPv4 address whose
     *         parts may be {@code *} or a range {@code 10-20}, or an IPv6 address (which may use {@code *})
     */
    private static boolean isInterface(String text) {
        if (text.indexOf(':') >= 0) {
            return text.chars().filter(c -> c == ':').count() >= 2 && text.chars().allMatch(c -> Character.digit(c, 16) >= 0
                    || c == ':' || c == '.' || c == '*' || c == '-');
        }
        String[] parts = text.split("\\.", -1);
        if (parts.length != 4) {
            return false;
        }
        for (String part : parts) {
            if (!part.equals("*") && !IPV4_PART.matcher(part).matches()) {
                return false;
            }
            String[] range = part.split("-");
            if (!part.equals("*") && (Integer.parseInt(range[0]) > 255
                    || (range.length == 2 && (Integer.parseInt(range[1]) > 255 || Integer.parseInt(range[0]) > Integer.parseInt(range[1]))))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isHostAndPort(String address) {
        java.util.regex.Matcher m = HOST_PORT.matcher(address);
        return m.matches() && (m.group(1) == null || (Integer.parseInt(m.group(1)) >= 1 && Integer.parseInt(m.group(1)) <= 65535));
    }

    /** @return whether configuration sets {@code attribute} of the rule, settling what annotations say of it */
    private boolean configured(String p, String attribute) {
        boolean limits = settings.get(p + "limits").isPresent();
        switch (attribute) {
            case "rate":
                return limits || settings.get(p + "rate").isPresent() || settings.get(p + "tokens-per-second").isPresent();
            case "burst":
                return limits || settings.get(p + "burst").isPresent();
            default:
                return settings.get(p + attribute).isPresent();
        }
    }

    private List<String> list(String property) {
        List<String> items = new ArrayList<>();
        settings.get(property).ifPresent(text -> {
            for (String item : text.split(",")) {
                if (!item.isBlank()) {
                    items.add(item.trim());
                }
            }
        });
        return items;
    }

    private int problemCount() {
        return problems.count();
    }
}
