package io.tollgate.internal.config;

import static io.tollgate.internal.config.ConfigTesting.problems;
import static io.tollgate.internal.config.ConfigTesting.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.internal.request.TrustedGateways;
import io.tollgate.internal.request.TrustedProxies;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The global {@code tollgate.*} properties: their defaults, every value they take, the problem line of a
 * bad one, and the names that are refused.
 */
class GlobalPropertiesTest {

    @Test
    void everyGlobalPropertyHasADefault() {
        TollgateConfig config = read();
        assertThat(config.rules()).isEmpty();
        assertThat(config.headerStyle()).isEqualTo(HeaderStyle.IETF);
        assertThat(config.retryAfterJitter()).isEqualTo(0.5);
        assertThat(config.trustedProxies()).isSameAs(TrustedProxies.NONE);
        assertThat(config.trustedGateways()).isSameAs(TrustedGateways.NONE);
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

    @Test
    void tollgateIsEnabledUnlessSwitchedOff() {
        assertThat(read().enabled()).isTrue();
        assertThat(read("tollgate.enabled", "false").enabled()).isFalse();
        assertThat(read("tollgate.enabled", "FALSE").enabled()).isFalse();
        assertThat(problems("tollgate.enabled", "off")).containsExactly("tollgate.enabled = 'off': must be one of true, false");
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
    void openTelemetryIsOnUnlessSwitchedOffAndNearTheLimitIsATenthOfTheBurst() {
        assertThat(read().telemetry()).isTrue();
        assertThat(read("tollgate.telemetry", "false").telemetry()).isFalse();
        assertThat(read().nearLimit()).isEqualTo(0.1);
        assertThat(read("tollgate.near-limit", "0.25").nearLimit()).isEqualTo(0.25);
        assertThat(read("tollgate.near-limit", "0").nearLimit()).isEqualTo(0.0);
        assertThat(problems("tollgate.telemetry", "on", "tollgate.near-limit", "10%")).containsExactly(
                "tollgate.telemetry = 'on': must be one of true, false",
                "tollgate.near-limit = '10%': not a number between 0 and 1");
        assertThat(problems("tollgate.near-limit", "1.5")).containsExactly(
                "tollgate.near-limit = '1.5': must be between 0 and 1 (a fraction of the burst)");
    }

    @Test
    void thirtyTwoKeysPerRuleAreFollowedForTheMostDeniedUnlessSetOtherwise() {
        assertThat(read().topDenied()).isEqualTo(32);
        assertThat(read("tollgate.top-denied", "0").topDenied()).isZero();
        assertThat(read("tollgate.top-denied", " 1000 ").topDenied()).isEqualTo(1000);
        assertThat(problems("tollgate.top-denied", "1001")).containsExactly("tollgate.top-denied = '1001': must be between 0 and 1000");
        assertThat(problems("tollgate.top-denied", "-1")).containsExactly("tollgate.top-denied = '-1': must be between 0 and 1000");
        assertThat(problems("tollgate.top-denied", "many")).hasSize(1);
    }

    @Test
    void eachMemberKeepsAHundredThousandBansUnlessSetOtherwise() {
        assertThat(read().bansMaxEntries()).isEqualTo(100_000);
        assertThat(read("tollgate.bans.max-entries", " 3 ").bansMaxEntries()).isEqualTo(3);
    }

    @Test
    void theAdminResourceIsOffUnlessSwitchedOnAndThenNeedsARole() {
        assertThat(read().admin()).isEqualTo(new AdminSettings(false, java.util.Optional.empty()));
        assertThat(read("tollgate.admin.role", "ops").admin().enabled()).isFalse();
        assertThat(read("tollgate.admin.enabled", "true", "tollgate.admin.role", " ops ").admin())
                .isEqualTo(new AdminSettings(true, java.util.Optional.of("ops")));
        assertThat(problems("tollgate.admin.enabled", "true")).containsExactly("tollgate.admin.role is not set: the admin resource "
                + "(tollgate.admin.enabled=true) answers only authenticated callers in this role; name the role your operators have");
        assertThat(problems("tollgate.admin.enabled", "true", "tollgate.admin.role", " ")).hasSize(1);
        assertThat(problems("tollgate.admin.enabled", "on", "tollgate.admin.role", "ops"))
                .containsExactly("tollgate.admin.enabled = 'on': must be one of true, false");
    }

    @Test
    void refusesAnUnknownGlobalProperty() {
        String known = "unknown property; known ones are tollgate.rules.<name>.<attribute> and tollgate.enabled, tollgate.headers, "
                + "tollgate.retry-after.jitter, tollgate.trusted-proxies, tollgate.trusted-proxies.header, tollgate.limits-from.trusted-gateways, "
                + "tollgate.key.ipv6-prefix, tollgate.store, tollgate.store.timeout, "
                + "tollgate.memory.max-entries, tollgate.denial-cache, tollgate.denial-cache.max-entries, "
                + "tollgate.bans.max-entries, tollgate.metrics, tollgate.telemetry, "
                + "tollgate.near-limit, tollgate.top-denied, tollgate.health, tollgate.config.refresh, "
                + "tollgate.hazelcast.map, tollgate.hazelcast.max-entries-per-member, "
                + "tollgate.hazelcast.backup-count, tollgate.hazelcast.jndi-name, tollgate.hazelcast.client.addresses, "
                + "tollgate.hazelcast.client.config, tollgate.hazelcast.cluster-name, tollgate.hazelcast.config, "
                + "tollgate.hazelcast.interface, tollgate.hazelcast.port, tollgate.hazelcast.members, "
                + "tollgate.hazelcast.kubernetes.service-dns, tollgate.hazelcast.serialization, tollgate.hazelcast.coalescing, "
                + "tollgate.cluster.min-members, tollgate.cluster.quorum, tollgate.admin.enabled, tollgate.admin.role";
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
    void theTrustedProxiesHeaderIsCheckedEvenWithoutProxies() {
        assertThat(problems("tollgate.trusted-proxies.header", "via")).containsExactly(
                "tollgate.trusted-proxies.header = 'via': must be one of x-forwarded-for, forwarded");
    }

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

    @ParameterizedTest(name = "trusted-gateways {0}")
    @CsvSource(delimiter = '|', value = {
        "10.0.0.0/33                  | '10.0.0.0/33' has a prefix length outside 0..32",
        "10.0.0.5, fd00::/129         | 'fd00::/129' has a prefix length outside 0..128",
        "gateway.internal             | 'gateway.internal' is not an IP address or CIDR range",
        "10.0.0.5:8080                | '10.0.0.5:8080' is not an IP address or CIDR range",
    })
    void refusesABadTrustedGateway(String gateways, String reason) {
        assertThat(problems("tollgate.limits-from.trusted-gateways", gateways)).containsExactly(
                "tollgate.limits-from.trusted-gateways = '" + gateways + "': " + reason);
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

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(delimiter = '|', value = {
        "tollgate.memory.max-entries                | 0           | must be between 1 and 2147483647",
        "tollgate.memory.max-entries                | 3000000000  | must be between 1 and 2147483647",
        "tollgate.memory.max-entries                | lots        | not a whole number",
        "tollgate.bans.max-entries                  | 0           | must be between 1 and 2147483647",
        "tollgate.bans.max-entries                  | -1          | must be between 1 and 2147483647",
        "tollgate.bans.max-entries                  | many        | not a whole number",
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
}
