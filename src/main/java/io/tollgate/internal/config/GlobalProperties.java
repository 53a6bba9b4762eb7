package io.tollgate.internal.config;

import io.tollgate.internal.request.IncomingRequest;
import io.tollgate.internal.request.TrustedGateways;
import io.tollgate.internal.request.TrustedProxies;
import io.tollgate.internal.store.Bans;
import io.tollgate.internal.store.StoreStack;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Every global {@code tollgate.*} property, once, in the order of the README's table. */
public final class GlobalProperties {

    /** Read by the CDI extension before the rest, to decide whether Tollgate starts anything at all. */
    public static final Property<Boolean> ENABLED = Property.of("tollgate.enabled", "true", Parsers.bool());
    static final Property<HeaderStyle> HEADERS = Property.of("tollgate.headers", "ietf", Parsers.choice(HeaderStyle.values()));
    static final Property<Double> JITTER = Property.of("tollgate.retry-after.jitter", "0.5", Parsers.fraction());
    static final Property<TrustedProxies> TRUSTED_PROXIES = Property.of("tollgate.trusted-proxies", "", Parsers.trustedProxies());
    static final Property<TrustedProxies.Header> FORWARDED_HEADER = Property.of("tollgate.trusted-proxies.header", "x-forwarded-for",
            Parsers.choice(TrustedProxies.Header.values()));
    /** The TCP peers whose limits header rules with {@code limits-from=header:<name>} believe; apart from the proxies. */
    static final Property<TrustedGateways> TRUSTED_GATEWAYS = Property.of("tollgate.limits-from.trusted-gateways", "",
            Parsers.trustedGateways());
    static final Property<Integer> IPV6_PREFIX = Property.of("tollgate.key.ipv6-prefix",
            Integer.toString(IncomingRequest.DEFAULT_IPV6_PREFIX), Parsers.integer(1, 128));
    static final Property<StoreType> STORE = Property.of("tollgate.store", "hazelcast", Parsers.choice(StoreType.values()));
    static final Property<Duration> STORE_TIMEOUT = Property.of("tollgate.store.timeout", "250ms",
            Parsers.duration(Duration.ofSeconds(60), "60s"));
    static final Property<Integer> MEMORY_MAX_ENTRIES = Property.of("tollgate.memory.max-entries", "100000",
            Parsers.integer(1, Integer.MAX_VALUE));
    static final Property<Boolean> DENIAL_CACHE = Property.of("tollgate.denial-cache", "true", Parsers.bool());
    static final Property<Integer> DENIAL_CACHE_MAX_ENTRIES = Property.of("tollgate.denial-cache.max-entries",
            String.valueOf(StoreStack.DEFAULT.denialCacheEntries()),
            Parsers.integer(1, Integer.MAX_VALUE));
    static final Property<Integer> BANS_MAX_ENTRIES = Property.of("tollgate.bans.max-entries",
            String.valueOf(Bans.DEFAULT_MAX_ENTRIES), Parsers.integer(1, Integer.MAX_VALUE));
    /** Read by the CDI extension before the rest, to decide whether the metrics exist. */
    public static final Property<Boolean> METRICS = Property.of("tollgate.metrics", "true", Parsers.bool());
    /** Read by the CDI extension before the rest, to decide whether the OpenTelemetry instruments exist. */
    public static final Property<Boolean> TELEMETRY = Property.of("tollgate.telemetry", "true", Parsers.bool());
    static final Property<Double> NEAR_LIMIT = Property.of("tollgate.near-limit", "0.1", Parsers.fraction("the burst"));
    static final Property<Integer> TOP_DENIED = Property.of("tollgate.top-denied", "32", Parsers.integer(0, 1000));
    /** Read by the CDI extension before the rest, to decide whether the readiness check exists. */
    public static final Property<Boolean> HEALTH = Property.of("tollgate.health", "true", Parsers.bool());

    /** How often the live attributes of every rule are read again from MicroProfile Config; zero: never. */
    static final Property<Duration> CONFIG_REFRESH = Property.of("tollgate.config.refresh", "30s", Parsers.period(Duration.ofSeconds(1),
            Duration.ofDays(1), "1s to 1d"));

    /** The IMap of the buckets; by default one per application ({@link HazelcastSettings#forApplication}). */
    public static final Property<Optional<String>> HAZELCAST_MAP = Property.described("tollgate.hazelcast.map", Optional.empty(),
            Parsers.optionalText(), "`tollgate-buckets-<application>`");
    /** The bound on buckets per member. */
    public static final Property<Integer> HAZELCAST_MAX_ENTRIES = Property.of("tollgate.hazelcast.max-entries-per-member", "1000000",
            Parsers.integer(1, Integer.MAX_VALUE));
    static final Property<Integer> HAZELCAST_BACKUPS = Property.of("tollgate.hazelcast.backup-count", "1", Parsers.integer(1, 6));
    static final Property<Optional<String>> HAZELCAST_JNDI = Property.of("tollgate.hazelcast.jndi-name", HazelcastSettings.DEFAULT_JNDI_NAME,
            Parsers.optionalText());
    static final Property<List<String>> CLIENT_ADDRESSES = Property.described("tollgate.hazelcast.client.addresses", List.of(),
            Parsers.addresses(true), "(none)");
    static final Property<Optional<String>> CLIENT_CONFIG = Property.of("tollgate.hazelcast.client.config", "", Parsers.configFile());
    static final Property<Optional<String>> CLUSTER_NAME = Property.of("tollgate.hazelcast.cluster-name", "", Parsers.optionalText());
    static final Property<Optional<String>> MEMBER_CONFIG = Property.of("tollgate.hazelcast.config", "", Parsers.configFile());
    static final Property<String> INTERFACE = Property.of("tollgate.hazelcast.interface", "127.0.0.1", Parsers.networkInterface());
    static final Property<Integer> PORT = Property.of("tollgate.hazelcast.port", "5701", Parsers.integer(1, 65535));
    static final Property<List<String>> MEMBERS = Property.of("tollgate.hazelcast.members",
            "127.0.0.1:5701,127.0.0.1:5702,127.0.0.1:5703", Parsers.addresses(false));
    static final Property<Optional<String>> KUBERNETES_SERVICE_DNS = Property.of("tollgate.hazelcast.kubernetes.service-dns", "",
            Parsers.dnsName());
    static final Property<HazelcastSettings.Serialization> SERIALIZATION = Property.of("tollgate.hazelcast.serialization", "auto",
            Parsers.choice(HazelcastSettings.Serialization.values()));
    static final Property<Boolean> COALESCING = Property.of("tollgate.hazelcast.coalescing",
            String.valueOf(StoreStack.DEFAULT.coalescing()), Parsers.bool());
    static final Property<Integer> MIN_MEMBERS = Property.of("tollgate.cluster.min-members", "1", Parsers.integer(1, 1000));
    static final Property<Integer> QUORUM = Property.of("tollgate.cluster.quorum", "0", Parsers.integer(0, 1000));
    static final Property<Boolean> ADMIN_ENABLED = Property.of("tollgate.admin.enabled", "false", Parsers.bool());
    static final Property<Optional<String>> ADMIN_ROLE = Property.of("tollgate.admin.role", "", Parsers.optionalText());

    /** Every one, in order. */
    public static final List<Property<?>> ALL = List.of(ENABLED, HEADERS, JITTER, TRUSTED_PROXIES, FORWARDED_HEADER, TRUSTED_GATEWAYS,
            IPV6_PREFIX, STORE, STORE_TIMEOUT, MEMORY_MAX_ENTRIES, DENIAL_CACHE, DENIAL_CACHE_MAX_ENTRIES, BANS_MAX_ENTRIES, METRICS,
            TELEMETRY, NEAR_LIMIT, TOP_DENIED, HEALTH, CONFIG_REFRESH,
            HAZELCAST_MAP, HAZELCAST_MAX_ENTRIES, HAZELCAST_BACKUPS, HAZELCAST_JNDI, CLIENT_ADDRESSES, CLIENT_CONFIG, CLUSTER_NAME,
            MEMBER_CONFIG, INTERFACE, PORT, MEMBERS, KUBERNETES_SERVICE_DNS, SERIALIZATION, COALESCING, MIN_MEMBERS, QUORUM,
            ADMIN_ENABLED, ADMIN_ROLE);

    private GlobalProperties() {
    }

    /** @return every name, in order */
    static List<String> names() {
        return ALL.stream().map(Property::name).toList();
    }
}
