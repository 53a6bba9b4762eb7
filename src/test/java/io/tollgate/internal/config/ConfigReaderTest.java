package io.tollgate.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.tollgate.internal.core.Limit;
import io.tollgate.internal.request.IncomingRequest;
import io.tollgate.internal.request.InvalidCostException;
import io.tollgate.internal.request.RequestView;
import io.tollgate.internal.request.TrustedProxies;
import io.tollgate.testing.MapSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every {@code tollgate.*} property: what a valid value resolves to, and the exact problem line
 * (property, value, reason) an invalid one produces. All problems arrive in one exception.
 */
class ConfigReaderTest {

    private static final String RULE = "tollgate.rules.search.";
    private static final String RATE_HELP = "use tokens per second (10, 0.5) or <tokens>/<period> (1000/1h, 5/100ms)";
    private static final String KEY_HELP = " is not a key; use ip, principal, header:<name>, query:<name>, jwt:<claim>, path, "
            + "global or resolver:<class>, comma-separated for a composite key";
    private static final String MATCH_HELP = " is not a condition; use <source>=<value> with a source header:<name>, "
            + "query:<name>, jwt:<claim> or principal, and * for any value";

    // ---------------------------------------------------------------- test doubles

    /** Just enough of a request to see what a resolved key, cost or match reads. */
    private static final class Request implements RequestView {
        private final Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        private final Map<String, String> claims = new LinkedHashMap<>();
        private String path = "/";

        Request header(String name, String value) {
            headers.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
            return this;
        }

        Request claim(String name, String value) {
            claims.put(name, value);
            return this;
        }

        Request path(String path) {
            this.path = path;
            return this;
        }

        IncomingRequest incoming() {
            return new IncomingRequest(this, TrustedProxies.NONE);
        }

        @Override
        public List<String> headers(String name) {
            return headers.getOrDefault(name, List.of());
        }

        @Override
        public List<String> queryParameters(String name) {
            return List.of();
        }

        @Override
        public String principal() {
            return null;
        }

        @Override
        public String claim(String name) {
            return claims.get(name);
        }

        @Override
        public String path() {
            return path;
        }

        @Override
        public String remoteAddress() {
            return "198.51.100.7";
        }
    }

    private static TollgateConfig read(String... namesAndValues) {
        return ConfigReader.read(MapSettings.of(namesAndValues), List.of());
    }

    private static TollgateConfig read(Collection<RuleDefaults> annotations, String... namesAndValues) {
        return ConfigReader.read(MapSettings.of(namesAndValues), annotations);
    }

    private static List<String> problems(String... namesAndValues) {
        return problems(List.of(), namesAndValues);
    }

    private static List<String> problems(Collection<RuleDefaults> annotations, String... namesAndValues) {
        InvalidConfigurationException e = catchThrowableOfType(InvalidConfigurationException.class,
                () -> ConfigReader.read(MapSettings.of(namesAndValues), annotations));
        assertThat(e).as("an InvalidConfigurationException").isNotNull();
        return e.problems();
    }

    // ---------------------------------------------------------------- valid rules

    @Test
    void resolvesEveryAttributeOfAValidRule() {
        TollgateConfig config = read(
                RULE + "rate", "10/s",
                RULE + "burst", "20",
                RULE + "key", "header:X-Api-Key, path",
                RULE + "cost", "header:X-Request-Weight",
                RULE + "default-cost", "2",
                RULE + "min-cost", "1",
                RULE + "max-cost", "15",
                RULE + "on-invalid-cost", "default",
                RULE + "match", "jwt:plan=free",
                RULE + "paths", "/api/search/*, /api/find/**",
                RULE + "mode", "shadow",
                RULE + "on-store-failure", "deny");

        RuleConfig rule = config.rule("search");
        assertThat(config.rules()).containsOnlyKeys("search");
        assertThat(rule.name()).isEqualTo("search");
        assertThat(rule.limits()).containsExactly(Limit.of(20, 10, Duration.ofSeconds(1)));
        assertThat(rule.bucket().limitCount()).isEqualTo(1);
        assertThat(rule.bucket().maxCost()).isEqualTo(20);

        assertThat(rule.key()).hasToString("header:X-Api-Key, path");
        IncomingRequest request = new Request().header("x-api-key", "k1").path("/p").claim("plan", "free").incoming();
        assertThat(rule.key().resolve("search", request, null, new Object[0], name -> null)).isEqualTo("2:k12:/p");

        assertThat(rule.cost()).hasToString("header:x-request-weight");
        assertThat(rule.cost().readsRequest()).isTrue();
        assertThat(rule.cost().defaultCost()).isEqualTo(2);
        assertThat(rule.cost().maxCost()).isEqualTo(15);
        assertThat(rule.cost().resolve(new Request().header("X-Request-Weight", "15").incoming())).isEqualTo(15);
        // on-invalid-cost=default: bad values cost the default instead of a 400
        assertThat(rule.cost().resolve(new Request().header("X-Request-Weight", "16").incoming())).isEqualTo(2);
        assertThat(rule.cost().resolve(new Request().header("X-Request-Weight", "0").incoming())).isEqualTo(2);
        assertThat(rule.cost().resolve(new Request().header("X-Request-Weight", "abc").incoming())).isEqualTo(2);
        assertThat(rule.cost().resolve(new Request().incoming())).isEqualTo(2);

        assertThat(rule.match()).hasToString("jwt:plan=free");
        assertThat(rule.match().isAll()).isFalse();
        assertThat(rule.match().matches(new Request().claim("plan", "free").incoming())).isTrue();
        assertThat(rule.match().matches(new Request().claim("plan", "pro").incoming())).isFalse();

        assertThat(rule.paths()).extracting(Object::toString).containsExactly("/api/search/*", "/api/find/**");
        assertThat(rule.appliesToPath("/api/search/books")).isTrue();
        assertThat(rule.appliesToPath("/api/find")).isTrue();
        assertThat(rule.appliesToPath("/api/other")).isFalse();
        assertThat(config.pathRules()).containsExactly(rule);

        assertThat(rule.mode()).isEqualTo(Mode.SHADOW);
        assertThat(rule.onStoreFailure()).isEqualTo(StoreFailurePolicy.DENY);
        assertThat(rule).hasToString("search [10/1s burst 20] key=header:X-Api-Key, path cost=header:x-request-weight"
                + " match=jwt:plan=free paths=[/api/search/*, /api/find/**] mode=SHADOW on-store-failure=DENY");
    }

    @Test
    void aRuleWithOnlyARateGetsEveryDefault() {
        TollgateConfig config = read(RULE + "rate", "10");

        RuleConfig rule = config.rule("search");
        assertThat(rule.limits()).containsExactly(Limit.of(10, 10, Duration.ofSeconds(1)));
        assertThat(rule.key()).hasToString("ip");
        assertThat(rule.key().resolve("search", new Request().incoming(), null, new Object[0], name -> null))
                .isEqualTo("198.51.100.7");
        assertThat(rule.cost()).hasToString("1");
        assertThat(rule.cost().readsRequest()).isFalse();
        assertThat(rule.cost().resolve(null)).isEqualTo(1);
        assertThat(rule.cost().defaultCost()).isEqualTo(1);
        assertThat(rule.cost().maxCost()).isEqualTo(10); // the burst
        assertThat(rule.match().isAll()).isTrue();
        assertThat(rule.match().matches(null)).isTrue();
        assertThat(rule.paths()).isEmpty();
        assertThat(rule.appliesToPath("/")).isFalse();
        assertThat(rule.mode()).isEqualTo(Mode.ENFORCE);
        assertThat(rule.onStoreFailure()).isEqualTo(StoreFailurePolicy.ALLOW);
        assertThat(config.pathRules()).isEmpty();
        assertThat(rule).hasToString("search [10/1s burst 10] key=ip cost=1 mode=ENFORCE on-store-failure=ALLOW");
    }

    @ParameterizedTest(name = "rate {0} is {1}")
    @CsvSource(delimiter = '|', value = {
        "10        | 10/1s burst 10",
        "0.5       | 1/2s burst 1",
        "2.5       | 5/2s burst 3",
        "0.1       | 1/10s burst 1",
        "1000/1h   | 1000/1h burst 1000",
        "5/100ms   | 5/100ms burst 5",
        "100/m     | 100/1m burst 100",
        "10/s      | 10/1s burst 10",
        "3/min     | 3/1m burst 3",
        "60/2 sec  | 60/2s burst 60",
        "7/500us   | 7/500us burst 7",
        "1/1d      | 1/1d burst 1",
        "' 12 / 3 S ' | 12/3s burst 12",
    })
    void readsEveryRateSyntaxWithItsDefaultBurst(String rate, String limit) {
        assertThat(read(RULE + "rate", rate).rule("search").limits()).singleElement().hasToString(limit);
    }

    @Test
    void ratesMeanExactlyTheLimitTheySay() {
        assertThat(read(RULE + "rate", "1000/1h").rule("search").limits())
                .containsExactly(Limit.of(1000, 1000, Duration.ofHours(1)));
        assertThat(read(RULE + "rate", "5/100ms").rule("search").limits())
                .containsExactly(Limit.of(5, 5, Duration.ofMillis(100)));
        assertThat(read(RULE + "rate", "0.5").rule("search").limits())
                .containsExactly(Limit.of(1, 1, Duration.ofSeconds(2)));
        assertThat(read(RULE + "rate", "100/m").rule("search").limits())
                .containsExactly(Limit.of(100, 100, Duration.ofMinutes(1)));
    }

    @Test
    void anExplicitBurstReplacesTheDefaultOne() {
        assertThat(read(RULE + "rate", "0.5", RULE + "burst", "5").rule("search").limits())
                .containsExactly(Limit.of(5, 1, Duration.ofSeconds(2)));
        assertThat(read(RULE + "rate", "1000/1h", RULE + "burst", " 50 ").rule("search").limits())
                .containsExactly(Limit.of(50, 1000, Duration.ofHours(1)));
    }

    @Test
    void tokensPerSecondIsAnAliasOfRate() {
        TollgateConfig config = read(RULE + "tokens-per-second", "4", RULE + "burst", "8");
        assertThat(config.rule("search").limits()).containsExactly(Limit.of(8, 4, Duration.ofSeconds(1)));
    }

    @Test
    void limitsHoldSeveralLimitsEachWithItsOwnBurst() {
        RuleConfig rule = read(RULE + "limits", "10/s burst 20, 1000/1h").rule("search");
        assertThat(rule.limits()).containsExactly(Limit.of(20, 10, Duration.ofSeconds(1)),
                Limit.of(1000, 1000, Duration.ofHours(1)));
        assertThat(rule.bucket().limitCount()).isEqualTo(2);
        assertThat(rule.cost().maxCost()).isEqualTo(20); // the smallest burst
    }

    @Test
    void limitsItemsMayUseEveryRateSyntax() {
        assertThat(read(RULE + "limits", "0.5 burst 3,5/100ms,  100/m burst 150 ").rule("search").limits())
                .containsExactly(Limit.of(3, 1, Duration.ofSeconds(2)), Limit.of(5, 5, Duration.ofMillis(100)),
                        Limit.of(150, 100, Duration.ofMinutes(1)));
    }

    // ---------------------------------------------------------------- where rules come from

    @Test
    void discoversRulesFromPropertyNamesIncludingDottedNames() {
        TollgateConfig config = read(
                "tollgate.rules.search.rate", "10",
                "tollgate.rules.api.v1.rate", "5",
                "tollgate.rules.a_b-c$1.rate", "1",
                "mp.jwt.verify.issuer", "ignored, not ours");
        assertThat(config.rules()).containsOnlyKeys("search", "api.v1", "a_b-c$1");
        assertThat(config.rules().keySet()).containsExactly("a_b-c$1", "api.v1", "search"); // name order
        assertThat(config.rule("api.v1").limits()).containsExactly(Limit.of(5, 5, Duration.ofSeconds(1)));
        assertThat(config.rule("missing")).isNull();
    }

    @Test
    void discoversRulesListedInTollgateRulesWhoseAttributesAreNotListed() {
        // environment variables (TOLLGATE_RULES_REPORTS_RATE) are found by name but not listed as tollgate.*
        MapSettings settings = MapSettings.of("tollgate.rules", " search, ,reports ")
                .hidden("tollgate.rules.search.rate", "10")
                .hidden("tollgate.rules.reports.rate", "1/s")
                .hidden("tollgate.rules.reports.key", "principal");
        TollgateConfig config = ConfigReader.read(settings, List.of());
        assertThat(config.rules()).containsOnlyKeys("search", "reports");
        assertThat(config.rule("reports").limits()).containsExactly(Limit.of(1, 1, Duration.ofSeconds(1)));
        assertThat(config.rule("reports").key()).hasToString("principal");
    }

    @Test
    void discoversRulesFromAnnotations() {
        RuleDefaults reports = new RuleDefaults("reports")
                .merge("app.ReportsResource.run", "2/s", 4, "principal", "header:X-Weight");
        RuleConfig rule = read(List.of(reports)).rule("reports");
        assertThat(rule.limits()).containsExactly(Limit.of(4, 2, Duration.ofSeconds(1)));
        assertThat(rule.key()).hasToString("principal");
        assertThat(rule.cost()).hasToString("header:x-weight");
        assertThat(rule.cost().maxCost()).isEqualTo(4);
    }

    @Test
    void annotationsThatAgreeOrSayNothingAreMerged() {
        RuleDefaults reports = new RuleDefaults("reports")
                .merge("app.A.run", "2/s", 0, "", "")
                .merge("app.B.run", "2/s", 4, "principal", "")
                .merge("app.C.run", "", 4, "", "3");
        RuleConfig rule = read(List.of(reports)).rule("reports");
        assertThat(rule.limits()).containsExactly(Limit.of(4, 2, Duration.ofSeconds(1)));
        assertThat(rule.key()).hasToString("principal");
        assertThat(rule.cost()).hasToString("3");
    }

    @Test
    void configurationOverridesEveryAnnotationValue() {
        RuleDefaults reports = new RuleDefaults("reports").merge("app.ReportsResource.run", "2/s", 4, "principal", "3");
        RuleConfig rule = read(List.of(reports),
                "tollgate.rules.reports.rate", "5",
                "tollgate.rules.reports.burst", "6",
                "tollgate.rules.reports.key", "ip",
                "tollgate.rules.reports.cost", "header:X-Weight").rule("reports");
        assertThat(rule.limits()).containsExactly(Limit.of(6, 5, Duration.ofSeconds(1)));
        assertThat(rule.key()).hasToString("ip");
        assertThat(rule.cost()).hasToString("header:x-weight");
    }

    @Test
    void configurationMayOverrideSomeAnnotationValuesAndKeepTheOthers() {
        RuleDefaults reports = new RuleDefaults("reports").merge("app.ReportsResource.run", "2/s", 4, "principal", "3");
        RuleConfig burstOnly = read(List.of(reports), "tollgate.rules.reports.burst", "8").rule("reports");
        assertThat(burstOnly.limits()).containsExactly(Limit.of(8, 2, Duration.ofSeconds(1)));
        assertThat(burstOnly.key()).hasToString("principal");
        assertThat(burstOnly.cost()).hasToString("3");

        RuleConfig viaAlias = read(List.of(reports), "tollgate.rules.reports.tokens-per-second", "1").rule("reports");
        assertThat(viaAlias.limits()).containsExactly(Limit.of(4, 1, Duration.ofSeconds(1)));
    }

    @Test
    void configurationLimitsReplaceTheAnnotationRateAndBurst() {
        RuleDefaults reports = new RuleDefaults("reports").merge("app.ReportsResource.run", "2/s", 4, "", "");
        RuleConfig rule = read(List.of(reports), "tollgate.rules.reports.limits", "10/s burst 20, 100/1h").rule("reports");
        assertThat(rule.limits()).containsExactly(Limit.of(20, 10, Duration.ofSeconds(1)),
                Limit.of(100, 100, Duration.ofHours(1)));
    }

    // ---------------------------------------------------------------- global properties

    @Test
    void everyGlobalPropertyHasADefault() {
        TollgateConfig config = read();
        assertThat(config.rules()).isEmpty();
        assertThat(config.headerStyle()).isEqualTo(HeaderStyle.IETF);
        assertThat(config.retryAfterJitter()).isEqualTo(0.5);
        assertThat(config.trustedProxies()).isSameAs(TrustedProxies.NONE);
        assertThat(config.storeType()).isEqualTo(StoreType.HAZELCAST);
        assertThat(config.storeTimeout()).isEqualTo(Duration.ofMillis(250));
        assertThat(config.memoryMaxEntries()).isEqualTo(100_000);

        HazelcastSettings hz = config.hazelcast();
        assertThat(hz.mapName()).isEqualTo("tollgate-buckets");
        assertThat(hz.maxEntriesPerMember()).isEqualTo(1_000_000);
        assertThat(hz.backupCount()).isEqualTo(1);
        assertThat(hz.jndiName()).contains("payara/Hazelcast");
        assertThat(hz.clientAddresses()).isEmpty();
        assertThat(hz.clientConfig()).isEmpty();
        assertThat(hz.clientMode()).isFalse();
        assertThat(hz.clusterName()).as("none: the embedded member makes up one private to the OS user").isEmpty();
        assertThat(hz.memberConfig()).isEmpty();
        assertThat(hz.bindInterface()).isEqualTo("127.0.0.1");
        assertThat(hz.port()).isEqualTo(5701);
        assertThat(hz.members()).containsExactly("127.0.0.1:5701", "127.0.0.1:5702", "127.0.0.1:5703");
        assertThat(hz.serialization()).isEqualTo(HazelcastSettings.Serialization.AUTO);
    }

    @Test
    void readsEveryGlobalProperty() {
        TollgateConfig config = read(
                "tollgate.headers", "x-ratelimit",
                "tollgate.retry-after.jitter", "0.25",
                "tollgate.trusted-proxies", "10.0.0.0/8, 192.168.1.1, fd00::/8",
                "tollgate.store", "MEMORY",
                "tollgate.store.timeout", "2s",
                "tollgate.memory.max-entries", "500",
                "tollgate.hazelcast.map", " buckets ",
                "tollgate.hazelcast.max-entries-per-member", "2000",
                "tollgate.hazelcast.backup-count", "6",
                "tollgate.hazelcast.jndi-name", "java:global/hz",
                "tollgate.hazelcast.client.addresses", "hz1:5701, hz2,,",
                "tollgate.hazelcast.client.config", "/etc/hazelcast-client.yaml",
                "tollgate.hazelcast.cluster-name", "prod",
                "tollgate.hazelcast.config", "/etc/hazelcast.yaml",
                "tollgate.hazelcast.interface", "10.0.0.5",
                "tollgate.hazelcast.port", "6000",
                "tollgate.hazelcast.members", "10.0.0.5:6000,10.0.0.6",
                "tollgate.hazelcast.serialization", "data-serializable");
        assertThat(config.headerStyle()).isEqualTo(HeaderStyle.X_RATELIMIT);
        assertThat(config.retryAfterJitter()).isEqualTo(0.25);
        TrustedProxies proxies = config.trustedProxies();
        assertThat(proxies.isEmpty()).isFalse();
        assertThat(proxies.contains("10.20.30.40")).isTrue();
        assertThat(proxies.contains("192.168.1.1")).isTrue();
        assertThat(proxies.contains("192.168.1.2")).isFalse();
        assertThat(proxies.contains("fd12::1")).isTrue();
        assertThat(proxies.contains("203.0.113.1")).isFalse();
        assertThat(config.storeType()).isEqualTo(StoreType.MEMORY);
        assertThat(config.storeTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(config.memoryMaxEntries()).isEqualTo(500);

        HazelcastSettings hz = config.hazelcast();
        assertThat(hz.mapName()).isEqualTo("buckets");
        assertThat(hz.maxEntriesPerMember()).isEqualTo(2000);
        assertThat(hz.backupCount()).isEqualTo(6);
        assertThat(hz.jndiName()).contains("java:global/hz");
        assertThat(hz.clientAddresses()).containsExactly("hz1:5701", "hz2");
        assertThat(hz.clientConfig()).contains("/etc/hazelcast-client.yaml");
        assertThat(hz.clientMode()).isTrue();
        assertThat(hz.clusterName()).contains("prod");
        assertThat(hz.memberConfig()).contains("/etc/hazelcast.yaml");
        assertThat(hz.bindInterface()).isEqualTo("10.0.0.5");
        assertThat(hz.port()).isEqualTo(6000);
        assertThat(hz.members()).containsExactly("10.0.0.5:6000", "10.0.0.6");
        assertThat(hz.serialization()).isEqualTo(HazelcastSettings.Serialization.DATA_SERIALIZABLE);
    }

    @Test
    void aClientConfigFileAloneMeansClientModeAndAnEmptyJndiNameMeansNone() {
        HazelcastSettings hz = read("tollgate.hazelcast.client.config", "/etc/c.yaml",
                "tollgate.hazelcast.jndi-name", " ",
                "tollgate.hazelcast.map", "  ").hazelcast();
        assertThat(hz.clientMode()).isTrue();
        assertThat(hz.clientAddresses()).isEmpty();
        assertThat(hz.jndiName()).isEmpty();
        assertThat(hz.mapName()).isEqualTo("tollgate-buckets");
    }

    @ParameterizedTest(name = "headers={0}")
    @CsvSource({"ietf, IETF", "legacy, LEGACY", "x-ratelimit, X_RATELIMIT", "none, NONE", "LEGACY, LEGACY", "' None ', NONE"})
    void readsEveryHeaderStyle(String text, HeaderStyle style) {
        assertThat(read("tollgate.headers", text).headerStyle()).isEqualTo(style);
    }

    @ParameterizedTest(name = "store.timeout={0}")
    @CsvSource({"250ms, PT0.25S", "2s, PT2S", "PT0.25S, PT0.25S", "60s, PT60S", "1m, PT60S", "100us, PT0.0001S",
        "1 sec, PT1S"})
    void readsEveryDurationSyntax(String text, Duration expected) {
        assertThat(read("tollgate.store.timeout", text).storeTimeout()).isEqualTo(expected);
    }

    @ParameterizedTest(name = "jitter={0}")
    @CsvSource({"0, 0.0", "1, 1.0", "0.25, 0.25", "' 0.75 ', 0.75", "1e-1, 0.1"})
    void readsTheJitter(String text, double expected) {
        assertThat(read("tollgate.retry-after.jitter", text).retryAfterJitter()).isEqualTo(expected);
    }

    @Test
    void aBlankTrustedProxiesListTrustsNobody() {
        assertThat(read("tollgate.trusted-proxies", " ").trustedProxies()).isSameAs(TrustedProxies.NONE);
    }

    // ---------------------------------------------------------------- invalid: property names

    @Test
    void refusesAnUnknownRuleAttribute() {
        assertThat(problems(RULE + "rate", "10", RULE + "brust", "20")).containsExactly(
                "tollgate.rules.search.brust = '20': unknown rule attribute 'brust'; known ones are rate, tokens-per-second, "
                        + "burst, limits, key, cost, default-cost, min-cost, max-cost, on-invalid-cost, match, paths, mode, "
                        + "on-store-failure");
    }

    @Test
    void metricsAndTheReadinessCheckAreOnUnlessSwitchedOff() {
        assertThat(read().metrics()).isTrue();
        assertThat(read().health()).isTrue();
        assertThat(read("tollgate.metrics", "false").metrics()).isFalse();
        assertThat(read("tollgate.health", "false").health()).isFalse();
        assertThat(problems("tollgate.metrics", "yes", "tollgate.health", "0")).containsExactly(
                "tollgate.metrics = 'yes': must be one of true, false",
                "tollgate.health = '0': must be one of true, false");
    }

    @Test
    void refusesAnUnknownGlobalProperty() {
        String known = "unknown property; known ones are tollgate.rules.<name>.<attribute> and tollgate.headers, "
                + "tollgate.retry-after.jitter, tollgate.trusted-proxies, tollgate.trusted-proxies.header, tollgate.key.ipv6-prefix, tollgate.store, tollgate.store.timeout, "
                + "tollgate.memory.max-entries, tollgate.denial-cache, tollgate.denial-cache.max-entries, tollgate.metrics, tollgate.health, "
                + "tollgate.hazelcast.map, tollgate.hazelcast.max-entries-per-member, "
                + "tollgate.hazelcast.backup-count, tollgate.hazelcast.jndi-name, tollgate.hazelcast.client.addresses, "
                + "tollgate.hazelcast.client.config, tollgate.hazelcast.cluster-name, tollgate.hazelcast.config, "
                + "tollgate.hazelcast.interface, tollgate.hazelcast.port, tollgate.hazelcast.members, "
                + "tollgate.hazelcast.serialization, tollgate.hazelcast.coalescing";
        assertThat(problems("tollgate.header", "legacy", "tollgate.hazelcast.backups", "2")).containsExactly(
                "tollgate.header = 'legacy': " + known,
                "tollgate.hazelcast.backups = '2': " + known);
    }

    @Test
    void readsTheHeaderTheTrustedProxiesWrite() {
        assertThat(read("tollgate.trusted-proxies", "10.0.0.0/8").trustedProxies().header())
                .isEqualTo(io.tollgate.internal.request.TrustedProxies.Header.X_FORWARDED_FOR);
        assertThat(read("tollgate.trusted-proxies", "10.0.0.0/8", "tollgate.trusted-proxies.header", "forwarded")
                .trustedProxies().header()).isEqualTo(io.tollgate.internal.request.TrustedProxies.Header.FORWARDED);
        assertThat(problems("tollgate.trusted-proxies", "10.0.0.0/8", "tollgate.trusted-proxies.header", "via")).containsExactly(
                "tollgate.trusted-proxies.header = 'via': must be one of x-forwarded-for, forwarded");
    }

    @Test
    void refusesARulePropertyWithoutAnAttribute() {
        assertThat(problems("tollgate.rules.search", "10")).containsExactly(
                "tollgate.rules.search = '10': not a rule property; use tollgate.rules.<name>.<attribute>");
    }

    @Test
    void refusesRuleNamesWithOtherCharacters() {
        assertThat(problems("tollgate.rules.my rule.rate", "10")).containsExactly(
                "tollgate.rules = 'my rule': 'my rule' is not a rule name; use letters, digits, '.', '_', '-' and '$'");
        assertThat(problems("tollgate.rules", "ok, no/slash")).containsExactly(
                "tollgate.rules = 'no/slash': 'no/slash' is not a rule name; use letters, digits, '.', '_', '-' and '$'",
                "tollgate.rules.ok.rate is not set: rule 'ok' needs a rate (or limits); " + RATE_HELP);
    }

    // ---------------------------------------------------------------- invalid: rates, bursts, limits

    @Test
    void refusesARuleWithoutARate() {
        assertThat(problems(RULE + "key", "ip")).containsExactly(
                "tollgate.rules.search.rate is not set: rule 'search' needs a rate (or limits); " + RATE_HELP);
        assertThat(problems("tollgate.rules", "search")).containsExactly(
                "tollgate.rules.search.rate is not set: rule 'search' needs a rate (or limits); " + RATE_HELP);
        assertThat(problems(RULE + "rate", "  ")).containsExactly(
                "tollgate.rules.search.rate is not set: rule 'search' needs a rate (or limits); " + RATE_HELP);
    }

    @Test
    void refusesMoreLimitsThanARuleMayHave() {
        String seventeen = String.join(", ", java.util.Collections.nCopies(17, "1/s"));
        assertThat(problems(RULE + "limits", seventeen)).containsExactly(
                "tollgate.rules.search.limits = '" + seventeen + "': 17 limits; a rule has at most 16");
        assertThat(read(RULE + "limits", String.join(", ", java.util.Collections.nCopies(16, "1/s"))).rule("search").limits())
                .hasSize(16);
    }

    @Test
    void aRuleWithoutARateNamesTheAnnotationsThatUseIt() {
        RuleDefaults reports = new RuleDefaults("reports")
                .merge("app.ReportsResource.run", "", 0, "principal", "")
                .merge("app.ReportsResource.list", "", 0, "", "");
        assertThat(problems(List.of(reports))).containsExactly(
                "tollgate.rules.reports.rate is not set: rule 'reports' (used by app.ReportsResource.run, "
                        + "app.ReportsResource.list) needs a rate (or limits); " + RATE_HELP);
    }

    @ParameterizedTest(name = "rate {0}")
    @CsvSource(delimiter = '|', value = {
        "abc               | not a rate; " + RATE_HELP,
        "-1                | not a rate; " + RATE_HELP,
        "1.5/s             | not a rate; " + RATE_HELP,
        "10 per second     | not a rate; " + RATE_HELP,
        "0                 | must be greater than 0",
        "0/s               | must be greater than 0",
        "10/0s             | must be positive",
        "10/x              | unknown time unit 'x'; use us, ms, s, m, h or d",
        "1/3651d           | must be at most 3650 days",
        "0.0000000000001   | must have at most 12 decimal places",
        "0.000000001       | is too slow: must be at least 1 token per 3650 days",
    })
    void refusesABadRate(String rate, String reason) {
        assertThat(problems(RULE + "rate", rate)).containsExactly(
                "tollgate.rules.search.rate = '" + rate + "': " + reason);
    }

    /** The Quick start once wrote its comments at the ends of lines; a properties file keeps them in the value. */
    @Test
    void aValueThatLooksLikeItCarriesAnEndOfLineCommentIsRefusedSayingSo() {
        String hint = "; a properties file has no end-of-line comments, so '%s' is part of the value: put the comment on a line of its own";
        assertThat(problems(RULE + "rate", "10        # 10 tokens per second")).containsExactly(
                "tollgate.rules.search.rate = '10        # 10 tokens per second': not a rate; " + RATE_HELP
                        + String.format(hint, "# 10 tokens per second"));
        assertThat(problems(RULE + "rate", "10", RULE + "burst", "20       # bucket capacity",
                "tollgate.store.timeout", "1s ! one second", "tollgate.hazelcast.port", "5701\t# the first port")).containsExactly(
                "tollgate.rules.search.burst = '20       # bucket capacity': not a whole number"
                        + String.format(hint, "# bucket capacity"),
                "tollgate.store.timeout = '1s ! one second': not a duration; use e.g. 250ms, 2s or PT0.25S"
                        + String.format(hint, "! one second"),
                "tollgate.hazelcast.port = '5701\t# the first port': not a whole number" + String.format(hint, "# the first port"));
        assertThat(problems(RULE + "limits", "10/s burst 20, 1000/1h # per hour")).singleElement().asString()
                .endsWith(String.format(hint, "# per hour"));
        // without a space before it, '#' is not read as a comment: no hint
        assertThat(problems(RULE + "rate", "10#per-second")).containsExactly(
                "tollgate.rules.search.rate = '10#per-second': not a rate; " + RATE_HELP);
    }

    @Test
    void refusesABadRateUnderTheNameItWasGiven() {
        assertThat(problems(RULE + "tokens-per-second", "fast")).containsExactly(
                "tollgate.rules.search.tokens-per-second = 'fast': not a rate; " + RATE_HELP);
    }

    @Test
    void refusesAnAnnotationRateUnderTheRuleRateProperty() {
        RuleDefaults reports = new RuleDefaults("reports").merge("app.ReportsResource.run", "lots", 0, "", "");
        assertThat(problems(List.of(reports))).containsExactly(
                "tollgate.rules.reports.rate = 'lots': not a rate; " + RATE_HELP);
    }

    @ParameterizedTest(name = "burst {0}")
    @CsvSource(delimiter = '|', value = {
        "0     | must be at least 1",
        "-1    | must be at least 1",
        "abc   | not a whole number",
        "2.5   | not a whole number",
    })
    void refusesABadBurst(String burst, String reason) {
        assertThat(problems(RULE + "rate", "10", RULE + "burst", burst)).containsExactly(
                "tollgate.rules.search.burst = '" + burst + "': " + reason);
    }

    @Test
    void refusesABurstTooLargeForItsRate() {
        assertThat(problems(RULE + "rate", "1/3650d", RULE + "burst", "100000")).containsExactly(
                "tollgate.rules.search.burst = '100000': too large for a refill of 1/3650d (burst x period / rate exceeds 2^61)");
    }

    @Test
    void refusesANegativeBurstFromAnAnnotation() {
        RuleDefaults search = new RuleDefaults("search").merge("app.SearchResource.find", "10", -3, "", "");
        assertThat(problems(List.of(search))).containsExactly(
                "tollgate.rules.search.burst = '-3': must be at least 1 (from the annotation (used by app.SearchResource.find))");
    }

    @Test
    void refusesLimitsTogetherWithRateOrBurst() {
        assertThat(problems(RULE + "limits", "10/s", RULE + "rate", "10")).containsExactly(
                "tollgate.rules.search.limits = '10/s': set either limits or rate/burst, not both");
        assertThat(problems(RULE + "limits", "10/s", RULE + "burst", "3")).containsExactly(
                "tollgate.rules.search.limits = '10/s': set either limits or rate/burst, not both");
        assertThat(problems(RULE + "limits", "10/s", RULE + "tokens-per-second", "3")).containsExactly(
                "tollgate.rules.search.limits = '10/s': set either limits or rate/burst, not both");
    }

    @Test
    void refusesEveryBadLimitItemAtOnce() {
        String limits = "10/s burst 0, abc, 0/s, 10/s burst x, 10/s burst, 1/3651d, 5/100ms";
        String prefix = "tollgate.rules.search.limits = '" + limits + "': ";
        assertThat(problems(RULE + "limits", limits)).containsExactly(
                prefix + "'10/s burst 0': burst 0 must be at least 1",
                prefix + "'abc': not a rate; " + RATE_HELP,
                prefix + "'0/s': rate must be greater than 0",
                prefix + "'10/s burst x': burst 'x' is not a whole number",
                prefix + "'10/s burst': not a rate; " + RATE_HELP,
                prefix + "'1/3651d': period must be at most 3650 days");
    }

    @Test
    void refusesEmptyLimits() {
        assertThat(problems(RULE + "limits", " ")).containsExactly(
                "tollgate.rules.search.limits = ' ': empty; give one or more <rate> [burst <n>], comma-separated");
    }

    // ---------------------------------------------------------------- invalid: costs

    @Test
    void refusesAMaxCostAboveTheBurst() {
        assertThat(problems(RULE + "rate", "10", RULE + "burst", "20", RULE + "max-cost", "30")).containsExactly(
                "tollgate.rules.search.max-cost = '30': exceeds the burst 20, so such a cost could never be granted");
    }

    @Test
    void refusesAMaxCostAboveTheSmallestBurstOfSeveralLimits() {
        assertThat(problems(RULE + "limits", "10/s burst 20, 5/1h", RULE + "max-cost", "6")).containsExactly(
                "tollgate.rules.search.max-cost = '6': exceeds the burst 5, so such a cost could never be granted");
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(delimiter = '|', value = {
        "max-cost      | 0    | must be at least 1",
        "max-cost      | abc  | not a whole number",
        "min-cost      | -1   | must be at least 0",
        "min-cost      | one  | not a whole number",
        "default-cost  | -1   | must be at least 0",
        "default-cost  | 1.5  | not a whole number",
    })
    void refusesACostBoundThatIsNotAWholeNumberInRange(String attribute, String value, String reason) {
        assertThat(problems(RULE + "rate", "10", RULE + "cost", "header:X-Weight", RULE + attribute, value))
                .containsExactly("tollgate.rules.search." + attribute + " = '" + value + "': " + reason);
    }

    @Test
    void refusesADefaultCostOutsideMinAndMaxCost() {
        assertThat(problems(RULE + "rate", "10", RULE + "burst", "20", RULE + "cost", "header:X-Weight",
                RULE + "default-cost", "25")).containsExactly(
                "tollgate.rules.search.default-cost = '25': must be between min-cost 1 and max-cost 20");
        assertThat(problems(RULE + "rate", "10", RULE + "cost", "header:X-Weight", RULE + "max-cost", "5",
                RULE + "default-cost", "6")).containsExactly(
                "tollgate.rules.search.default-cost = '6': must be between min-cost 1 and max-cost 5");
        assertThat(problems(RULE + "rate", "10", RULE + "cost", "header:X-Weight", RULE + "default-cost", "0"))
                .containsExactly("tollgate.rules.search.default-cost = '0': must be between min-cost 1 and max-cost 10");
    }

    @Test
    void acceptsADefaultCostOfZeroWhenMinCostIsZero() {
        RuleConfig rule = read(RULE + "rate", "10", RULE + "cost", "query:weight", RULE + "min-cost", "0",
                RULE + "default-cost", "0").rule("search");
        assertThat(rule.cost().defaultCost()).isZero();
    }

    @Test
    void refusesAFixedCostOutsideMinAndMaxCost() {
        assertThat(problems(RULE + "rate", "10", RULE + "burst", "20", RULE + "cost", "25")).containsExactly(
                "tollgate.rules.search.cost = '25': must be between min-cost 1 and max-cost 20 (the burst is 20)");
        assertThat(problems(RULE + "rate", "10", RULE + "burst", "20", RULE + "max-cost", "10", RULE + "cost", "15"))
                .containsExactly("tollgate.rules.search.cost = '15': must be between min-cost 1 and max-cost 10");
        assertThat(problems(RULE + "rate", "10", RULE + "cost", "0")).containsExactly(
                "tollgate.rules.search.cost = '0': must be between min-cost 1 and max-cost 10");
        assertThat(problems(RULE + "rate", "10", RULE + "cost", "-2")).containsExactly(
                "tollgate.rules.search.cost = '-2': must be between min-cost 1 and max-cost 10");
    }

    @Test
    void acceptsAFixedCostWithinTheBurst() {
        RuleConfig rule = read(RULE + "rate", "10", RULE + "burst", "20", RULE + "cost", " 20 ").rule("search");
        assertThat(rule.cost().readsRequest()).isFalse();
        assertThat(rule.cost().resolve(null)).isEqualTo(20);
        assertThat(read(RULE + "rate", "10", RULE + "cost", "0", RULE + "min-cost", "0").rule("search").cost().resolve(null))
                .isZero();
    }

    /**
     * BUG: a fixed cost too large for a long escapes as a bare IllegalArgumentException
     * ("cost '99999999999999999999' is not a whole number"), so the deployment error names no property
     * and every other problem is lost.
     */
    @Test
    void refusesAFixedCostTooLargeForALongAsAProblemLine() {
        assertThatThrownBy(() -> read(RULE + "rate", "10", RULE + "cost", "99999999999999999999", "tollgate.store", "redis"))
                .isInstanceOf(InvalidConfigurationException.class)
                .satisfies(e -> assertThat(((InvalidConfigurationException) e).problems()).hasSize(2)
                        .anySatisfy(line -> assertThat(line).startsWith("tollgate.rules.search.cost = '99999999999999999999': "))
                        .contains("tollgate.store = 'redis': must be one of hazelcast, memory"));
    }

    @ParameterizedTest(name = "cost {0}")
    @ValueSource(strings = {"cookie:session", "jwt:weight", "principal", "1.5", "header:", "query:a b", "heavy"})
    void refusesACostThatIsNeitherANumberNorAHeaderNorAQueryParameter(String cost) {
        assertThat(problems(RULE + "rate", "10", RULE + "cost", cost)).containsExactly(
                "tollgate.rules.search.cost = '" + cost + "': '" + cost
                        + "' is not a cost; use a whole number, header:<name> or query:<name>");
    }

    @Test
    void refusesABadOnInvalidCost() {
        assertThat(problems(RULE + "rate", "10", RULE + "cost", "header:X-Weight", RULE + "on-invalid-cost", "ignore"))
                .containsExactly("tollgate.rules.search.on-invalid-cost = 'ignore': must be one of reject, default");
    }

    @Test
    void rejectsBadCostValuesUnlessToldToChargeTheDefault() {
        RuleConfig rejecting = read(RULE + "rate", "10", RULE + "cost", "header:X-Weight", RULE + "on-invalid-cost", "REJECT")
                .rule("search");
        assertThatThrownBy(() -> rejecting.cost().resolve(new Request().header("X-Weight", "11").incoming()))
                .isInstanceOf(InvalidCostException.class)
                .hasMessage("header:x-weight = '11': exceeds max-cost 10");
    }

    // ---------------------------------------------------------------- invalid: key, match, paths, mode, policy

    @ParameterizedTest(name = "key {0}")
    @CsvSource(delimiter = '|', value = {
        "cookie:x              | cookie:x",
        "ip, cookie:x          | cookie:x",
        "header:               | header:",
        "principal:alice       | principal:alice",
        "resolver:             | resolver:",
        "resolver:1com.Keys    | resolver:1com.Keys",
        "ip,                   | ''",
        "address               | address",
    })
    void refusesABadKey(String key, String part) {
        assertThat(problems(RULE + "rate", "10", RULE + "key", key)).containsExactly(
                "tollgate.rules.search.key = '" + key + "': '" + part + "'" + KEY_HELP);
    }

    @ParameterizedTest(name = "match {0}")
    @CsvSource(delimiter = '|', value = {
        "plan=free                     | plan=free",
        "jwt:plan                      | jwt:plan",
        "jwt:plan=                     | jwt:plan=",
        "=free                         | =free",
        "path:/x=1                     | path:/x=1",
        "header:X-Tier=gold,           | ''",
        "header:X-Tier=gold, ip=1      | ip=1",
    })
    void refusesABadMatch(String match, String condition) {
        assertThat(problems(RULE + "rate", "10", RULE + "match", match)).containsExactly(
                "tollgate.rules.search.match = '" + match + "': '" + condition + "'" + MATCH_HELP);
    }

    @Test
    void refusesEveryBadPath() {
        assertThat(problems(RULE + "rate", "10", RULE + "paths", "api/search")).containsExactly(
                "tollgate.rules.search.paths = 'api/search': 'api/search' must start with '/'");
        assertThat(problems(RULE + "rate", "10", RULE + "paths", "a**")).containsExactly(
                "tollgate.rules.search.paths = 'a**': 'a**' must start with '/'");
        assertThat(problems(RULE + "rate", "10", RULE + "paths", "/api/a**")).containsExactly(
                "tollgate.rules.search.paths = '/api/a**': '/api/a**': ** must be a whole segment");
        assertThat(problems(RULE + "rate", "10", RULE + "paths", "/ok/*,/api/**x,/fine,bad")).containsExactly(
                "tollgate.rules.search.paths = '/api/**x': '/api/**x': ** must be a whole segment",
                "tollgate.rules.search.paths = 'bad': 'bad' must start with '/'");
    }

    @Test
    void refusesABadMode() {
        assertThat(problems(RULE + "rate", "10", RULE + "mode", "block")).containsExactly(
                "tollgate.rules.search.mode = 'block': must be one of enforce, shadow");
    }

    @Test
    void refusesABadOnStoreFailure() {
        assertThat(problems(RULE + "rate", "10", RULE + "on-store-failure", "open")).containsExactly(
                "tollgate.rules.search.on-store-failure = 'open': must be one of allow, deny");
    }

    @Test
    void checksEveryAttributeOfARuleWhoseRateIsBad() {
        assertThat(problems(RULE + "rate", "abc", RULE + "key", "cookie:x", RULE + "mode", "block")).containsExactly(
                "tollgate.rules.search.rate = 'abc': not a rate; " + RATE_HELP,
                "tollgate.rules.search.key = 'cookie:x': 'cookie:x'" + KEY_HELP,
                "tollgate.rules.search.mode = 'block': must be one of enforce, shadow");
    }

    // ---------------------------------------------------------------- invalid: global properties

    @Test
    void refusesABadHeaderStyle() {
        assertThat(problems("tollgate.headers", "fancy")).containsExactly(
                "tollgate.headers = 'fancy': must be one of ietf, legacy, x-ratelimit, none");
        assertThat(problems("tollgate.headers", "x_ratelimit")).containsExactly(
                "tollgate.headers = 'x_ratelimit': must be one of ietf, legacy, x-ratelimit, none");
    }

    @ParameterizedTest(name = "jitter {0}")
    @CsvSource(delimiter = '|', value = {
        "2     | must be between 0 and 1 (a fraction of the wait)",
        "1.01  | must be between 0 and 1 (a fraction of the wait)",
        "-0.1  | must be between 0 and 1 (a fraction of the wait)",
        "abc   | not a number between 0 and 1",
        "NaN   | not a number between 0 and 1",
        "50%   | not a number between 0 and 1",
    })
    void refusesABadJitter(String jitter, String reason) {
        assertThat(problems("tollgate.retry-after.jitter", jitter)).containsExactly(
                "tollgate.retry-after.jitter = '" + jitter + "': " + reason);
    }

    @ParameterizedTest(name = "trusted-proxies {0}")
    @CsvSource(delimiter = '|', value = {
        "10.0.0.0/33                  | '10.0.0.0/33' has a prefix length outside 0..32",
        "10.0.0.0/8, 10.0.0.0/33      | '10.0.0.0/33' has a prefix length outside 0..32",
        "10.0.0.0/-1                  | '10.0.0.0/-1' has a prefix length outside 0..32",
        "10.0.0.0/x                   | '10.0.0.0/x' has a prefix length outside 0..32",
        "fd00::/129                   | 'fd00::/129' has a prefix length outside 0..128",
        "example.com                  | 'example.com' is not an IP address or CIDR range",
        "10.0.0.256                   | '10.0.0.256' is not an IP address or CIDR range",
        "10.0.0/8                     | '10.0.0/8' is not an IP address or CIDR range",
    })
    void refusesABadTrustedProxy(String proxies, String reason) {
        assertThat(problems("tollgate.trusted-proxies", proxies)).containsExactly(
                "tollgate.trusted-proxies = '" + proxies + "': " + reason);
    }

    @Test
    void refusesABadStore() {
        assertThat(problems("tollgate.store", "redis")).containsExactly(
                "tollgate.store = 'redis': must be one of hazelcast, memory");
    }

    @ParameterizedTest(name = "store.timeout {0}")
    @CsvSource(delimiter = '|', value = {
        "0s      | must be more than 0 and at most 60s",
        "0ms     | must be more than 0 and at most 60s",
        "2m      | must be more than 0 and at most 60s",
        "61s     | must be more than 0 and at most 60s",
        "PT-1S   | must be more than 0 and at most 60s",
        "abc     | not a duration; use e.g. 250ms, 2s or PT0.25S",
        "250     | not a duration; use e.g. 250ms, 2s or PT0.25S",
        "-1s     | not a duration; use e.g. 250ms, 2s or PT0.25S",
        "PTxS    | not a duration; use e.g. 250ms, 2s or PT0.25S",
        "5ns     | unknown time unit 'ns'; use us, ms, s, m, h or d",
    })
    void refusesABadStoreTimeout(String timeout, String reason) {
        assertThat(problems("tollgate.store.timeout", timeout)).containsExactly(
                "tollgate.store.timeout = '" + timeout + "': " + reason);
    }

    /**
     * BUG: a duration whose number overflows {@link Duration} escapes as a bare ArithmeticException
     * ("Exceeds capacity of Duration") instead of a problem line.
     */
    @Test
    void refusesAStoreTimeoutTooLargeForADurationAsAProblemLine() {
        assertThatThrownBy(() -> read("tollgate.store.timeout", "9999999999999999d"))
                .isInstanceOf(InvalidConfigurationException.class)
                .satisfies(e -> assertThat(((InvalidConfigurationException) e).problems()).singleElement()
                        .satisfies(line -> assertThat(line).startsWith("tollgate.store.timeout = '9999999999999999d': ")));
    }

    /** BUG: as above, for the period of a rate. */
    @Test
    void refusesARatePeriodTooLargeForADurationAsAProblemLine() {
        assertThatThrownBy(() -> read(RULE + "rate", "1/9999999999999999d"))
                .isInstanceOf(InvalidConfigurationException.class)
                .satisfies(e -> assertThat(((InvalidConfigurationException) e).problems()).singleElement()
                        .satisfies(line -> assertThat(line).startsWith("tollgate.rules.search.rate = '1/9999999999999999d': ")));
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(delimiter = '|', value = {
        "tollgate.memory.max-entries                | 0           | must be between 1 and 2147483647",
        "tollgate.memory.max-entries                | 3000000000  | must be between 1 and 2147483647",
        "tollgate.memory.max-entries                | lots        | not a whole number",
        "tollgate.hazelcast.backup-count            | 0           | must be between 1 and 6",
        "tollgate.hazelcast.backup-count            | 7           | must be between 1 and 6",
        "tollgate.hazelcast.backup-count            | one         | not a whole number",
        "tollgate.hazelcast.max-entries-per-member  | 0           | must be between 1 and 2147483647",
        "tollgate.hazelcast.port                    | 0           | must be between 1 and 65535",
        "tollgate.hazelcast.port                    | 65536       | must be between 1 and 65535",
        "tollgate.hazelcast.port                    | http        | not a whole number",
        "tollgate.hazelcast.serialization           | java        | must be one of auto, identified, data-serializable",
    })
    void refusesABadNumberOrChoice(String property, String value, String reason) {
        assertThat(problems(property, value)).containsExactly(property + " = '" + value + "': " + reason);
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(delimiter = '|', value = {
        "tollgate.hazelcast.members           | host:port     | host:port",
        "tollgate.hazelcast.members           | [::1]:5701    | [::1]:5701",
        "tollgate.hazelcast.members           | a:1:2         | a:1:2",
        "tollgate.hazelcast.members           | h:123456      | h:123456",
    })
    void refusesAMemberAddressThatIsNotHostOrHostAndPort(String property, String value, String address) {
        assertThat(problems(property, value)).containsExactly(
                property + " = '" + value + "': '" + address + "' is not host or host:port");
    }

    @Test
    void refusesAClientAddressThatIsNotHostOrHostAndPort() {
        assertThat(problems("tollgate.hazelcast.client.addresses", "hz1:x", "tollgate.hazelcast.cluster-name", "prod")).containsExactly(
                "tollgate.hazelcast.client.addresses = 'hz1:x': 'hz1:x' is not host or host:port");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"10.0.0.*", "10.0.0.*:5701", "10.0.0.1-3", "10.0.0.1-3:5701"})
    void refusesHazelcastAddressPatternsInTheMemberList(String pattern) {
        assertThat(problems("tollgate.hazelcast.members", pattern)).containsExactly(
                "tollgate.hazelcast.members = '" + pattern + "': '" + pattern + "' is not host or host:port");
    }

    @Test
    void aClientToAnExternalClusterNeedsThatClustersName() {
        assertThat(problems("tollgate.hazelcast.client.addresses", "hz1:5701")).containsExactly(
                "tollgate.hazelcast.cluster-name is not set: a client to an external cluster (tollgate.hazelcast.client.addresses) "
                        + "needs that cluster's name; Tollgate's own default name is private to one OS user on one host, and no "
                        + "external cluster has it");
        assertThat(read("tollgate.hazelcast.client.addresses", "hz1:5701", "tollgate.hazelcast.cluster-name", "prod")
                .hazelcast().clusterName()).contains("prod");
        assertThat(read("tollgate.hazelcast.client.config", "/etc/client.yaml").hazelcast().clusterName())
                .as("a client configuration file names its cluster itself").isEmpty();
    }

    @Test
    void namesEveryBadMemberAddressWithTheWholeList() {
        assertThat(problems("tollgate.hazelcast.members", "a:1,bad host,c:2,d:e")).containsExactly(
                "tollgate.hazelcast.members = 'a:1,bad host,c:2,d:e': 'bad host' is not host or host:port",
                "tollgate.hazelcast.members = 'a:1,bad host,c:2,d:e': 'd:e' is not host or host:port");
    }

    /** BUG: five digits pass the member-address check even when they are not a port (1..65535). */
    @Test
    void refusesAMemberPortOutsideOneTo65535() {
        assertThatThrownBy(() -> read("tollgate.hazelcast.members", "hz1:99999"))
                .isInstanceOf(InvalidConfigurationException.class)
                .satisfies(e -> assertThat(((InvalidConfigurationException) e).problems()).singleElement()
                        .satisfies(line -> assertThat(line).startsWith("tollgate.hazelcast.members = 'hz1:99999': ")));
    }

    // ---------------------------------------------------------------- invalid: annotations

    @Test
    void reportsAnnotationsThatDisagree() {
        RuleDefaults search = new RuleDefaults("search")
                .merge("app.A.find", "10", 3, "ip", "2")
                .merge("app.B.find", "20", 5, "principal", "header:W");
        assertThat(problems(List.of(search))).containsExactly(
                "tollgate.rules.search.rate = (not set): annotations disagree ('10' elsewhere, '20' on app.B.find); "
                        + "set it in configuration or make them agree",
                "tollgate.rules.search.key = (not set): annotations disagree ('ip' elsewhere, 'principal' on app.B.find); "
                        + "set it in configuration or make them agree",
                "tollgate.rules.search.cost = (not set): annotations disagree ('2' elsewhere, 'header:W' on app.B.find); "
                        + "set it in configuration or make them agree",
                "tollgate.rules.search.burst = (not set): annotations disagree (3 elsewhere, 5 on app.B.find); "
                        + "set it in configuration or make them agree");
    }

    /**
     * BUG: the conflict message says "set it in configuration", but a conflict is reported even when
     * configuration sets the attribute (and so overrides both annotations).
     */
    @Test
    void configurationSettlesAnnotationsThatDisagree() {
        RuleDefaults search = new RuleDefaults("search")
                .merge("app.A.find", "10", 3, "ip", "2")
                .merge("app.B.find", "20", 5, "principal", "3");
        RuleConfig rule = read(List.of(search),
                RULE + "rate", "30",
                RULE + "burst", "40",
                RULE + "key", "global",
                RULE + "cost", "4").rule("search");
        assertThat(rule.limits()).containsExactly(Limit.of(40, 30, Duration.ofSeconds(1)));
        assertThat(rule.key()).hasToString("global");
        assertThat(rule.cost()).hasToString("4");
    }

    /** BUG: as above; {@code limits} replaces both the rate and the burst of the annotations. */
    @Test
    void configurationLimitsSettleAnnotationRatesAndBurstsThatDisagree() {
        RuleDefaults search = new RuleDefaults("search")
                .merge("app.A.find", "10", 3, "", "")
                .merge("app.B.find", "20", 5, "", "");
        RuleConfig rule = read(List.of(search), RULE + "limits", "10/s burst 20").rule("search");
        assertThat(rule.limits()).containsExactly(Limit.of(20, 10, Duration.ofSeconds(1)));
    }

    // ---------------------------------------------------------------- every documented property, a bad value of each

    /** The README and the reader know the same properties, so the walk below covers what users are told about. */
    @Test
    void theReadmeDocumentsExactlyThePropertiesTheReaderKnows() {
        Set<String> known = new TreeSet<>(GlobalProperties.names());
        known.add(ConfigReader.RULES);
        RuleAttributes.names().forEach(attribute -> known.add(BadConfiguration.RULE + attribute));
        assertThat(BadConfiguration.documentedProperties()).isEqualTo(known);
    }

    @Test
    void everyDocumentedPropertyHasBadValuesToTryOrTakesAnyText() {
        Set<String> covered = new TreeSet<>(BadConfiguration.FREE_TEXT.keySet());
        BadConfiguration.cases().forEach(c -> covered.add(c.property));
        assertThat(covered).isEqualTo(BadConfiguration.documentedProperties());
        Set<String> withBadValues = BadConfiguration.cases().stream().map(c -> c.property).collect(Collectors.toSet());
        assertThat(BadConfiguration.FREE_TEXT.keySet()).doesNotContainAnyElementsOf(withBadValues);
        System.out.printf("configuration: %d documented properties; %d bad values over %d of them, each failing alone with "
                + "its property and value; %d take any text%n", covered.size(), BadConfiguration.cases().size(),
                withBadValues.size(), BadConfiguration.FREE_TEXT.size());
    }

    static Stream<BadConfiguration.Case> badValues() {
        return BadConfiguration.cases().stream();
    }

    /** Each bad value, alone in an otherwise valid configuration, fails it with one line naming the property and the value. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("badValues")
    void aBadValueOfEveryDocumentedPropertyIsReportedWithThePropertyAndTheValue(BadConfiguration.Case bad) {
        List<String> properties = new ArrayList<>();
        bad.context.forEach((name, value) -> {
            properties.add(name);
            properties.add(value);
        });
        properties.add(bad.property);
        properties.add(bad.value);
        assertThat(problems(properties.toArray(new String[0]))).singleElement(InstanceOfAssertFactories.STRING)
                .startsWith(bad.property + " = '" + bad.value + "': ");
    }

    @Test
    void freeTextPropertiesTakeAnyText() {
        String odd = " é 名前 /x:y,z@1 ";
        HazelcastSettings hz = read("tollgate.hazelcast.map", odd, "tollgate.hazelcast.jndi-name", odd,
                "tollgate.hazelcast.cluster-name", odd).hazelcast();
        assertThat(hz.mapName()).isEqualTo(odd.trim());
        assertThat(hz.jndiName()).contains(odd.trim());
        assertThat(hz.clusterName()).contains(odd.trim());
    }

    @Test
    void theTrustedProxiesHeaderIsCheckedEvenWithoutProxies() {
        assertThat(problems("tollgate.trusted-proxies.header", "via")).containsExactly(
                "tollgate.trusted-proxies.header = 'via': must be one of x-forwarded-for, forwarded");
    }

    @ParameterizedTest(name = "interface {0}")
    @ValueSource(strings = {"127.0.0.1", "10.0.0.*", "10.3.10.4-18", "*.*.*.*", "fd00::1", "fe80:0:0:0:45c5:47ee:fe15:*", "::1"})
    void readsEveryInterfaceHazelcastTakes(String address) {
        assertThat(read("tollgate.hazelcast.interface", " " + address + " ").hazelcast().bindInterface()).isEqualTo(address);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"/etc/hazelcast.yaml", "hazelcast.yml", "C:\\hz\\HAZELCAST.XML"})
    void readsHazelcastConfigurationFilesOfEveryKind(String file) {
        assertThat(read("tollgate.hazelcast.config", file).hazelcast().memberConfig()).contains(file);
        assertThat(read("tollgate.hazelcast.client.config", file).hazelcast().clientConfig()).contains(file);
    }

    // ---------------------------------------------------------------- all problems at once

    @Test
    void reportsEveryProblemOfEveryRuleAndGlobalPropertyInOneException() {
        InvalidConfigurationException e = catchThrowableOfType(InvalidConfigurationException.class, () -> read(
                "tollgate.rules.search.rate", "abc",
                "tollgate.rules.search.brust", "20",
                "tollgate.rules.search.key", "cookie:x",
                "tollgate.rules.reports.rate", "10",
                "tollgate.rules.reports.max-cost", "50",
                "tollgate.rules", "orphan",
                "tollgate.headers", "fancy",
                "tollgate.trusted-proxies", "example.com",
                "tollgate.store.timeout", "0s",
                "tollgate.hazelcast.backup-count", "7"));

        assertThat(e.problems()).containsExactlyInAnyOrder(
                "tollgate.rules.search.brust = '20': unknown rule attribute 'brust'; known ones are rate, tokens-per-second, "
                        + "burst, limits, key, cost, default-cost, min-cost, max-cost, on-invalid-cost, match, paths, mode, "
                        + "on-store-failure",
                "tollgate.rules.search.rate = 'abc': not a rate; " + RATE_HELP,
                "tollgate.rules.search.key = 'cookie:x': 'cookie:x'" + KEY_HELP,
                "tollgate.rules.reports.max-cost = '50': exceeds the burst 10, so such a cost could never be granted",
                "tollgate.rules.orphan.rate is not set: rule 'orphan' needs a rate (or limits); " + RATE_HELP,
                "tollgate.headers = 'fancy': must be one of ietf, legacy, x-ratelimit, none",
                "tollgate.trusted-proxies = 'example.com': 'example.com' is not an IP address or CIDR range",
                "tollgate.store.timeout = '0s': must be more than 0 and at most 60s",
                "tollgate.hazelcast.backup-count = '7': must be between 1 and 6");
        assertThat(e).hasMessage("Invalid Tollgate configuration (9 problems):\n  " + String.join("\n  ", e.problems()));
    }

    @Test
    void aSingleProblemIsCountedInTheSingular() {
        assertThatThrownBy(() -> read("tollgate.store", "redis"))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessage("Invalid Tollgate configuration (1 problem):\n"
                        + "  tollgate.store = 'redis': must be one of hazelcast, memory");
    }

    @Test
    void theProblemListCannotBeChanged() {
        InvalidConfigurationException e = catchThrowableOfType(InvalidConfigurationException.class,
                () -> read("tollgate.store", "redis"));
        assertThatThrownBy(() -> e.problems().add("more")).isInstanceOf(UnsupportedOperationException.class);
    }
}
