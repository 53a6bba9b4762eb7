package io.tollgate.internal.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Bad values for every property of the configuration reference ({@value ConfigurationReference#PAGE}), and that
 * reference read from the page itself, so a property documented without a bad value here fails a test.
 * A rule attribute is written for the rule {@code search}: {@code tollgate.rules.search.<attribute>}.
 */
public final class BadConfiguration {

    public static final String RULE = "tollgate.rules.search.";

    /** Properties that take any text: there is no bad value to try. */
    public static final Map<String, String> FREE_TEXT = Map.of(
            "tollgate.hazelcast.map", "any IMap name; blank means the default",
            "tollgate.hazelcast.jndi-name", "any JNDI name; blank means none",
            "tollgate.hazelcast.cluster-name", "any cluster name; blank means none (the embedded member's private default)",
            "tollgate.admin.role", "any role name; blank means none, which tollgate.admin.enabled=true refuses");

    /** One bad value, with the other properties that make the rest of the configuration valid. */
    public static final class Case {
        public final String property;
        public final String value;
        public final Map<String, String> context;

        Case(String property, String value, Map<String, String> context) {
            this.property = property;
            this.value = value;
            this.context = context;
        }

        /** @return the same case for the rule {@code name}: its property and context renamed */
        public Case forRule(String name) {
            Map<String, String> renamed = new LinkedHashMap<>();
            context.forEach((k, v) -> renamed.put(k.replace(RULE, "tollgate.rules." + name + "."), v));
            return new Case(property.replace(RULE, "tollgate.rules." + name + "."), value, renamed);
        }

        /** @return the configuration of the case, name and value alternately: its context, then the bad value */
        public String[] properties() {
            List<String> properties = new ArrayList<>();
            context.forEach((name, value) -> {
                properties.add(name);
                properties.add(value);
            });
            properties.add(property);
            properties.add(value);
            return properties.toArray(new String[0]);
        }

        public boolean isRuleAttribute() {
            return property.startsWith(RULE);
        }

        @Override
        public String toString() {
            return property + " = '" + value + "'";
        }
    }

    private BadConfiguration() {
    }

    /** @return every bad value to try, several per property */
    public static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        Map<String, String> rate = Map.of(RULE + "rate", "10");
        Map<String, String> statedCost = Map.of(RULE + "rate", "10", RULE + "cost", "header:X-Weight");
        Map<String, String> none = Map.of();
        add(cases, RULE + "rate", none, "ten", "0", "-1", "1.5/s", "10/x", "1/9999999999999999d");
        add(cases, RULE + "tokens-per-second", none, "fast", "0", "10 per second");
        add(cases, RULE + "burst", rate, "0", "-1", "abc", "2.5", "99999999999999999999");
        add(cases, RULE + "limits", none, "10/s burst 0", "abc", " ", "0/s", "10/s burst x",
                String.join(",", java.util.Collections.nCopies(17, "1/s")));
        add(cases, RULE + "key", rate, "cookie:session", "header:", "ip,", "resolver:1com.Keys");
        add(cases, RULE + "on-missing-key", rate, "ignore", "400", "share");
        add(cases, RULE + "cost", rate, "body:size", "1.5", "99999999999999999999", "11", "0");
        add(cases, RULE + "default-cost", statedCost, "-1", "1.5", "abc", "11");
        add(cases, RULE + "min-cost", rate, "-1", "one", "1.5");
        add(cases, RULE + "max-cost", rate, "0", "abc", "30");
        add(cases, RULE + "on-invalid-cost", statedCost, "ignore", "400");
        add(cases, RULE + "match", rate, "plan=free", "jwt:plan", "=free", "path:/x=1");
        add(cases, RULE + "match", rate, "method=FETCH", "ip=10.0.0.0/33", "role=", "!header:X-Internal", "header:X-Tier=gold|");
        add(cases, RULE + "exempt", rate, "ip=10.0.0.0/33", "ip=intranet", "method=*", "role=", "role=admin,", "!role=admin",
                "header:X-Internal==1", "admin");
        add(cases, RULE + "paths", rate, "api/search", "/api/a**");
        add(cases, RULE + "mode", rate, "block", "off");
        add(cases, RULE + "on-store-failure", rate, "open", "closed");
        add(cases, RULE + "overrides", rate, "acme", "acme=fast", "acme=1/s; acme=2/s", "a%2=1/s", "acme=1/s burst 5");
        add(cases, RULE + "limits-from", Map.of(RULE + "rate", "10", RULE + "max-limit", "100/1s"), "query:plan", "cookie:plan",
                "jwt:", "principal", "header:X-Plan-Limit");
        Map<String, String> fromClaim = Map.of(RULE + "rate", "10", RULE + "limits-from", "jwt:rate_limit");
        add(cases, RULE + "max-limit", fromClaim, "fast", "10/1s, 100/1h", "5/1s", "100/1s burst 5", "100/1s burst 0");
        add(cases, RULE + "max-limit", rate, "100/1s");
        add(cases, RULE + "ban-after", Map.of(RULE + "rate", "10", RULE + "ban-for", "10m"), "10", "0/1m", "ten/1m", "10/1x", "10 per minute");
        Map<String, String> banned = Map.of(RULE + "rate", "10", RULE + "ban-after", "10/1m");
        add(cases, RULE + "ban-for", banned, "0s", "8d", "forever", "-1m");
        add(cases, RULE + "ban-status", Map.of(RULE + "rate", "10", RULE + "ban-after", "10/1m", RULE + "ban-for", "1m"),
                "404", "200", "forbidden");
        add(cases, RULE + "charge-on", rate, "401", "status:600", "status:6xx", "status:abc", "exception:com.example.NoSuchError",
                "exception:java.lang.String", "outcome:failed");
        add(cases, RULE + "refund-on", rate, " , ", "status:099", "status:5XX5", "exception:", "error:5xx");
        add(cases, "tollgate.rules", none, "no/slash", "my rule");
        add(cases, "tollgate.headers", none, "fancy", "x_ratelimit");
        add(cases, "tollgate.enabled", none, "off", "no", "0");
        add(cases, "tollgate.retry-after.jitter", none, "2", "-0.1", "NaN", "50%");
        add(cases, "tollgate.trusted-proxies", none, "example.com", "10.0.0.0/33", "10.0.0.256", "fd00::/129");
        add(cases, "tollgate.trusted-proxies.header", none, "via", "x-real-ip");
        add(cases, "tollgate.limits-from.trusted-gateways", none, "gateway.internal", "10.0.0.0/33", "10.0.0.5:8080", "fd00::/129");
        add(cases, "tollgate.key.ipv6-prefix", none, "0", "129", "/64", "64 bits");
        add(cases, "tollgate.store", none, "redis", "jcache");
        add(cases, "tollgate.store.timeout", none, "0s", "61s", "abc", "5ns", "9999999999999999d");
        add(cases, "tollgate.memory.max-entries", none, "0", "3000000000", "lots");
        add(cases, "tollgate.denial-cache", none, "maybe", "yes", "1");
        add(cases, "tollgate.denial-cache.max-entries", none, "0", "-5", "many");
        add(cases, "tollgate.bans.max-entries", none, "0", "-1", "3000000000", "many");
        add(cases, "tollgate.metrics", none, "on", "yes", "1");
        add(cases, "tollgate.telemetry", none, "on", "no");
        add(cases, "tollgate.near-limit", none, "10%", "1.5", "-0.1", "NaN");
        add(cases, "tollgate.top-denied", none, "-1", "1001", "ten", "1.5");
        add(cases, "tollgate.health", none, "off", "no", "0");
        add(cases, "tollgate.config.refresh", none, "500ms", "2d", "never", "-1s");
        add(cases, "tollgate.hazelcast.max-entries-per-member", none, "0", "3000000000", "x");
        add(cases, "tollgate.hazelcast.backup-count", none, "0", "7", "one");
        add(cases, "tollgate.hazelcast.client.addresses", Map.of("tollgate.hazelcast.cluster-name", "prod"), "hz1:x", "hz1:99999", "a:1:2");
        add(cases, "tollgate.hazelcast.client.config", none, "hazelcast-client.json", "client.properties");
        add(cases, "tollgate.hazelcast.config", none, "hazelcast.properties", "hazelcast.json");
        add(cases, "tollgate.hazelcast.interface", none, "eth0", "localhost", "10.0.0", "10.0.0.256", "10.0.0.20-10");
        add(cases, "tollgate.hazelcast.port", none, "0", "65536", "http");
        add(cases, "tollgate.hazelcast.members", none, "hz1:x", "a:1:2", "h:123456", "10.0.0.*", "10.0.0.1-3:5701");
        add(cases, "tollgate.hazelcast.kubernetes.service-dns", Map.of("tollgate.hazelcast.cluster-name", "prod"), "my service",
                "-tollgate.shop.svc", "tollgate..svc", "tollgate_shop.svc");
        add(cases, "tollgate.hazelcast.serialization", none, "java", "kryo");
        add(cases, "tollgate.hazelcast.coalescing", none, "maybe", "on");
        add(cases, "tollgate.cluster.min-members", none, "0", "1001", "two", "1.5");
        add(cases, "tollgate.cluster.quorum", none, "-1", "1001", "majority");
        add(cases, "tollgate.admin.enabled", Map.of("tollgate.admin.role", "ops"), "yes", "1");
        return cases;
    }

    private static void add(List<Case> cases, String property, Map<String, String> context, String... values) {
        for (String value : values) {
            cases.add(new Case(property, value, context));
        }
    }

    /**
     * @return the properties the configuration reference lists: rule attributes (as
     *         {@code tollgate.rules.search.<attribute>}, aliases included), {@code tollgate.rules},
     *         and every global property
     */
    public static Set<String> documentedProperties() {
        Set<String> properties = new TreeSet<>(documentedDefaults().keySet());
        if (readme().stream().anyMatch(line -> line.startsWith("`tollgate.rules="))) {
            properties.add("tollgate.rules");
        }
        return properties;
    }

    /**
     * @return the default the reference's tables give each rule attribute (as {@code tollgate.rules.search.<attribute>},
     *         an alias with the attribute it stands for) and each global property, in the reference's order
     */
    public static Map<String, String> documentedDefaults() {
        Map<String, String> defaults = new LinkedHashMap<>();
        Pattern code = Pattern.compile("`([^`]+)`");
        String section = "";
        for (String line : readme()) {
            if (line.startsWith("#")) {
                section = line;
                continue;
            }
            boolean rules = section.startsWith("### Rules");
            if (!line.startsWith("| `") || !rules && !section.startsWith("### Global properties")) {
                continue;
            }
            String[] cells = line.split("\\|");
            Matcher names = code.matcher(cells[1]);
            while (names.find()) {
                defaults.put(rules ? RULE + names.group(1) : names.group(1), cells[2].trim());
                if (!rules) {
                    break;
                }
            }
        }
        return defaults;
    }

    private static List<String> readme() {
        try {
            return Files.readAllLines(Path.of(System.getProperty("basedir", "."), ConfigurationReference.PAGE));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
