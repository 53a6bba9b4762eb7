package io.tollgate.internal.config;

import io.tollgate.internal.request.IncomingRequest;
import io.tollgate.internal.request.RequestView;
import io.tollgate.internal.request.TrustedGateways;
import io.tollgate.internal.request.TrustedProxies;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/** Tollgate's whole resolved configuration. Immutable. */
public final class TollgateConfig {

    private final Map<String, RuleConfig> rules;
    private final List<RuleConfig> pathRules;
    private final HeaderStyle headerStyle;
    private final double retryAfterJitter;
    private final TrustedProxies trustedProxies;
    private final TrustedGateways trustedGateways;
    private final int ipv6Prefix;
    private final StoreType storeType;
    private final Duration storeTimeout;
    private final int memoryMaxEntries;
    private final HazelcastSettings hazelcast;
    private final ClusterSettings cluster;
    private final boolean denialCache;
    private final int denialCacheMaxEntries;
    private final boolean metrics;
    private final boolean health;
    private final boolean telemetry;
    private final double nearLimit;
    private final AdminSettings admin;
    private final Duration configRefresh;
    private final int topDenied;
    private final int bansMaxEntries;
    private final boolean enabled;

    TollgateConfig(Map<String, RuleConfig> rules, HeaderStyle headerStyle, double retryAfterJitter,
            TrustedProxies trustedProxies, TrustedGateways trustedGateways, int ipv6Prefix, StoreType storeType, Duration storeTimeout,
            int memoryMaxEntries, HazelcastSettings hazelcast, ClusterSettings cluster, boolean denialCache, int denialCacheMaxEntries,
            boolean metrics, boolean health, boolean telemetry, double nearLimit, AdminSettings admin, Duration configRefresh,
            int topDenied, int bansMaxEntries, boolean enabled) {
        this.rules = Collections.unmodifiableMap(rules);
        List<RuleConfig> withPaths = new ArrayList<>();
        for (RuleConfig rule : rules.values()) {
            if (!rule.paths().isEmpty()) {
                withPaths.add(rule);
            }
        }
        this.pathRules = Collections.unmodifiableList(withPaths);
        this.headerStyle = headerStyle;
        this.retryAfterJitter = retryAfterJitter;
        this.trustedProxies = trustedProxies;
        this.trustedGateways = trustedGateways;
        this.ipv6Prefix = ipv6Prefix;
        this.storeType = storeType;
        this.storeTimeout = storeTimeout;
        this.memoryMaxEntries = memoryMaxEntries;
        this.hazelcast = hazelcast;
        this.cluster = cluster;
        this.denialCache = denialCache;
        this.denialCacheMaxEntries = denialCacheMaxEntries;
        this.metrics = metrics;
        this.health = health;
        this.telemetry = telemetry;
        this.nearLimit = nearLimit;
        this.admin = admin;
        this.configRefresh = configRefresh;
        this.topDenied = topDenied;
        this.bansMaxEntries = bansMaxEntries;
        this.enabled = enabled;
    }

    /**
     * @return whether Tollgate limits anything ({@code tollgate.enabled}); when not, the configuration is still read and
     *         checked, but no store is opened and every call passes
     */
    public boolean enabled() {
        return enabled;
    }

    /** @return how many members the store's cluster should have, and its quorum */
    public ClusterSettings cluster() {
        return cluster;
    }

    /** @return how often the rules' live attributes are read again from the configuration; zero: never */
    public Duration configRefresh() {
        return configRefresh;
    }

    /** @return whether decisions are counted in MicroProfile Metrics, where the server offers it */
    public boolean metrics() {
        return metrics;
    }

    /** @return whether decisions are recorded through OpenTelemetry, where the server offers MicroProfile Telemetry */
    public boolean telemetry() {
        return telemetry;
    }

    /**
     * @return the fraction of the burst below which an allowed decision's remaining tokens count it as near the
     *         limit (0 to 1; 0 counts none)
     */
    public double nearLimit() {
        return nearLimit;
    }

    /** @return the keys followed per rule for its most denied ({@code tollgate.top-denied}); 0 follows none */
    public int topDenied() {
        return topDenied;
    }

    /** @return the most bans each member keeps ({@code tollgate.bans.max-entries}) */
    public int bansMaxEntries() {
        return bansMaxEntries;
    }

    /** @return whether the store's readiness is reported to MicroProfile Health, where the server offers it */
    public boolean health() {
        return health;
    }

    /** @return whether the admin resource answers, and to whom */
    public AdminSettings admin() {
        return admin;
    }

    /** @return whether recent denials are answered on this member without asking the store */
    public boolean denialCache() {
        return denialCache;
    }

    public int denialCacheMaxEntries() {
        return denialCacheMaxEntries;
    }

    /** @return every rule by name, in name order */
    public Map<String, RuleConfig> rules() {
        return rules;
    }

    /** @return the rule, or {@code null} */
    public RuleConfig rule(String name) {
        return rules.get(name);
    }

    /** @return the rules that apply to requests by path */
    public List<RuleConfig> pathRules() {
        return pathRules;
    }

    public HeaderStyle headerStyle() {
        return headerStyle;
    }

    /** @return the largest fraction added to Retry-After as per-client jitter, 0 to 1 */
    public double retryAfterJitter() {
        return retryAfterJitter;
    }

    public TrustedProxies trustedProxies() {
        return trustedProxies;
    }

    /** @return the TCP peers whose limits header ({@code limits-from=header:<name>}) is believed */
    public TrustedGateways trustedGateways() {
        return trustedGateways;
    }

    /** @return the leading bits of an IPv6 client address that make its {@code key=ip} (1 to 128) */
    public int ipv6Prefix() {
        return ipv6Prefix;
    }

    /** @return {@code view} as a request to check, with the client's address read as configured */
    public IncomingRequest incoming(RequestView view) {
        return new IncomingRequest(view, trustedProxies, ipv6Prefix);
    }

    public StoreType storeType() {
        return storeType;
    }

    public Duration storeTimeout() {
        return storeTimeout;
    }

    public int memoryMaxEntries() {
        return memoryMaxEntries;
    }

    public HazelcastSettings hazelcast() {
        return hazelcast;
    }
}
