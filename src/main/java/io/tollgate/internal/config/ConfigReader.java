package io.tollgate.internal.config;

import static io.tollgate.internal.config.GlobalProperties.CLIENT_ADDRESSES;
import static io.tollgate.internal.config.GlobalProperties.CLIENT_CONFIG;
import static io.tollgate.internal.config.GlobalProperties.CLUSTER_NAME;

import io.tollgate.internal.request.TrustedGateways;
import io.tollgate.internal.request.TrustedProxies;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Reads and validates every {@code tollgate.*} property once, reporting all problems together:
 * the properties of {@link GlobalProperties}, and the {@link RuleAttributes} of each rule. Rules
 * are those named in properties ({@code tollgate.rules.<name>.<attribute>}), in the list
 * {@code tollgate.rules} (handy with environment variables), or in annotations.
 */
public final class ConfigReader {

    public static final String PREFIX = "tollgate.";
    public static final String RULES = "tollgate.rules";
    private static final String RULE_PREFIX = RULES + ".";
    private static final Pattern RULE_NAME = Pattern.compile("[A-Za-z0-9_$][A-Za-z0-9_.$-]*");

    private final Settings settings;
    private final ConfigProblems problems = new ConfigProblems();

    private ConfigReader(Settings settings) {
        this.settings = settings;
    }

    /**
     * @param settings    the properties
     * @param annotations what annotations say about rules, by rule name
     * @return the configuration
     * @throws InvalidConfigurationException listing every problem, each with its property and value
     */
    public static TollgateConfig read(Settings settings, Collection<RuleDefaults> annotations) {
        return new ConfigReader(settings).read(annotations);
    }

    private TollgateConfig read(Collection<RuleDefaults> annotations) {
        int before = problems.count();
        TrustedGateways gateways = read(GlobalProperties.TRUSTED_GATEWAYS);
        boolean gatewaysRefused = problems.count() > before;
        TollgateConfig config = new TollgateConfig(rules(annotations, gatewaysRefused ? null : gateways),
                read(GlobalProperties.HEADERS),
                read(GlobalProperties.JITTER),
                trustedProxies(),
                gateways,
                read(GlobalProperties.IPV6_PREFIX),
                read(GlobalProperties.STORE),
                read(GlobalProperties.STORE_TIMEOUT),
                read(GlobalProperties.MEMORY_MAX_ENTRIES),
                hazelcast(),
                cluster(),
                read(GlobalProperties.DENIAL_CACHE),
                read(GlobalProperties.DENIAL_CACHE_MAX_ENTRIES),
                read(GlobalProperties.METRICS),
                read(GlobalProperties.HEALTH),
                read(GlobalProperties.TELEMETRY),
                read(GlobalProperties.NEAR_LIMIT),
                admin(),
                read(GlobalProperties.CONFIG_REFRESH),
                read(GlobalProperties.TOP_DENIED),
                read(GlobalProperties.BANS_MAX_ENTRIES),
                read(GlobalProperties.ENABLED));
        ConfigChecks.clusterOnAStoreOfOneMember(config.cluster(), config.storeType(), problems);
        problems.throwIfAny();
        return config;
    }

    private <T> T read(Property<T> property) {
        return property.read(settings, problems);
    }

    /** @param gateways the trusted gateways, {@code null} if their property was refused (and so reported) */
    private Map<String, RuleConfig> rules(Collection<RuleDefaults> annotations, TrustedGateways gateways) {
        Map<String, RuleDefaults> defaults = new TreeMap<>();
        for (RuleDefaults d : annotations) {
            defaults.put(d.name(), d);
        }
        Set<String> names = new TreeSet<>(defaults.keySet());
        names.addAll(ruleNamesFromProperties());
        settings.get(RULES).ifPresent(list -> names.addAll(CommaList.items(list)));
        Map<String, RuleConfig> rules = new TreeMap<>();
        for (String name : names) {
            if (!RULE_NAME.matcher(name).matches()) {
                problems.invalid(RULES, name, "'" + name + "' is not a rule name; use letters, digits, '.', '_', '-' and '$'");
                continue;
            }
            RuleDefaults annotation = defaults.getOrDefault(name, new RuleDefaults(name));
            RuleConfig rule = new RuleReader(settings, gateways, problems, name, annotation).read();
            if (rule != null) {
                rules.put(name, rule);
            }
        }
        return rules;
    }

    /** @return the rules that properties name; every other {@code tollgate.*} property must be a known global one */
    private Set<String> ruleNamesFromProperties() {
        Set<String> names = new TreeSet<>();
        for (String property : settings.names()) {
            if (!property.startsWith(PREFIX) || property.equals(RULES)) {
                continue;
            }
            String value = settings.get(property).orElse("");
            if (!property.startsWith(RULE_PREFIX)) {
                if (!GlobalProperties.names().contains(property)) {
                    problems.invalid(property, value, "unknown property; known ones are " + RULE_PREFIX + "<name>.<attribute> and "
                            + String.join(", ", GlobalProperties.names()));
                }
                continue;
            }
            String rest = property.substring(RULE_PREFIX.length());
            int dot = rest.lastIndexOf('.');
            if (dot <= 0) {
                problems.invalid(property, value, "not a rule property; use " + RULE_PREFIX + "<name>.<attribute>");
                continue;
            }
            String attribute = rest.substring(dot + 1);
            if (!RuleAttributes.names().contains(attribute)) {
                problems.invalid(property, value, "unknown rule attribute '" + attribute + "'; known ones are "
                        + String.join(", ", RuleAttributes.names()));
                continue;
            }
            names.add(rest.substring(0, dot));
        }
        return names;
    }

    /** @return the trusted proxies, with the header they write (checked even without proxies: a bad one is a mistake all the same) */
    private TrustedProxies trustedProxies() {
        TrustedProxies proxies = read(GlobalProperties.TRUSTED_PROXIES);
        return proxies.withHeader(read(GlobalProperties.FORWARDED_HEADER));
    }

    private AdminSettings admin() {
        AdminSettings admin = new AdminSettings(read(GlobalProperties.ADMIN_ENABLED), read(GlobalProperties.ADMIN_ROLE));
        ConfigChecks.adminHasRole(admin, problems);
        return admin;
    }

    private ClusterSettings cluster() {
        return new ClusterSettings(read(GlobalProperties.MIN_MEMBERS), read(GlobalProperties.QUORUM));
    }

    private HazelcastSettings hazelcast() {
        List<String> clientAddresses = read(CLIENT_ADDRESSES);
        Optional<String> clientConfig = read(CLIENT_CONFIG);
        Optional<String> clusterName = read(CLUSTER_NAME);
        ConfigChecks.clientHasClusterName(clientAddresses, clientConfig, clusterName, problems);
        List<String> members = read(GlobalProperties.MEMBERS);
        Optional<String> serviceDns = read(GlobalProperties.KUBERNETES_SERVICE_DNS);
        Optional<String> memberConfig = read(GlobalProperties.MEMBER_CONFIG);
        ConfigChecks.otherHostsHaveClusterName(members, serviceDns, clusterName, memberConfig,
                settings.get(GlobalProperties.MEMBERS.name()).orElse(""), problems);
        return new HazelcastSettings(
                read(GlobalProperties.HAZELCAST_MAP),
                read(GlobalProperties.HAZELCAST_MAX_ENTRIES),
                read(GlobalProperties.HAZELCAST_BACKUPS),
                read(GlobalProperties.HAZELCAST_JNDI),
                clientAddresses,
                clientConfig,
                clusterName,
                memberConfig,
                read(GlobalProperties.INTERFACE),
                read(GlobalProperties.PORT),
                members,
                serviceDns,
                read(GlobalProperties.SERIALIZATION),
                read(GlobalProperties.COALESCING));
    }
}
