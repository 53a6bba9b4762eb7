package io.tollgate.internal.config;

import io.tollgate.internal.request.CostSpec;
import io.tollgate.internal.request.IncomingRequest;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The part of a rule that changes at runtime, as one immutable snapshot: its limits, mode, store-failure policy,
 * cost bounds (a max-cost left to default follows the smallest burst), per-key overrides and the bound of the limits
 * requests carry ({@link RequestLimits}, with the texts it parsed). A decision reads
 * {@link RuleConfig#live()} once and decides everything from that snapshot.
 */
public final class LiveRule {

    /** The names {@link #values()} gives, in order. */
    public static final String LIMITS = "limits";
    static final String MODE = "mode";
    static final String ON_STORE_FAILURE = "on-store-failure";
    public static final String OVERRIDES = "overrides";
    static final String MAX_LIMIT = "max-limit";

    private final RuleConfig rule;
    private final BucketLimits limits;
    private final Mode mode;
    private final StoreFailurePolicy onStoreFailure;
    private final CostSpec cost;
    private final Map<String, BucketLimits> overrides;
    private final RequestLimits fromRequest;

    LiveRule(RuleConfig rule, BucketLimits limits, Mode mode, StoreFailurePolicy onStoreFailure, CostSpec cost,
            Map<String, BucketLimits> overrides) {
        this(rule, limits, mode, onStoreFailure, cost, overrides, null);
    }

    private LiveRule(RuleConfig rule, BucketLimits limits, Mode mode, StoreFailurePolicy onStoreFailure, CostSpec cost,
            Map<String, BucketLimits> overrides, RequestLimits fromRequest) {
        this.rule = rule;
        this.limits = limits;
        this.mode = mode;
        this.onStoreFailure = onStoreFailure;
        this.cost = cost;
        this.overrides = Collections.unmodifiableMap(new LinkedHashMap<>(overrides));
        this.fromRequest = fromRequest;
    }

    /** @return this snapshot for {@code owner} */
    LiveRule of(RuleConfig owner) {
        return new LiveRule(owner, limits, mode, onStoreFailure, cost, overrides, fromRequest);
    }

    /** @return this snapshot with {@code next} as its overrides */
    LiveRule withOverrides(Map<String, BucketLimits> next) {
        return new LiveRule(rule, limits, mode, onStoreFailure, cost, next, fromRequest);
    }

    /** @return this snapshot with its limits taken from requests as {@code next} says */
    LiveRule withRequestLimits(RequestLimits next) {
        return new LiveRule(rule, limits, mode, onStoreFailure, cost, overrides, next);
    }

    /** @return the rule this snapshot is of */
    public RuleConfig rule() {
        return rule;
    }

    /** @return the rule's ban after repeated denials, unless this snapshot is in shadow mode (which never bans), else {@code null} */
    public BanRule enforcedBan() {
        return mode == Mode.ENFORCE ? rule.ban() : null;
    }

    /** @return the rule's own limits */
    public BucketLimits limits() {
        return limits;
    }

    /** @return what the bucket of {@code key} is decided by: its override, else the rule's limits (a lookup only with overrides) */
    public BucketLimits limits(String key) {
        if (overrides.isEmpty()) {
            return limits;
        }
        BucketLimits override = overrides.get(key);
        return override != null ? override : limits;
    }

    /**
     * @param key     the bucket key
     * @param request the HTTP request, or {@code null} outside one
     * @return what the bucket of {@code key} is decided by for {@code request}: the key's override, else the limits the
     *         request carries (capped at {@code max-limit}), else the rule's own limits
     */
    public BucketLimits limits(String key, IncomingRequest request) {
        if (fromRequest == null) {
            return limits(key);
        }
        BucketLimits override = overrides.isEmpty() ? null : overrides.get(key);
        return override != null ? override : fromRequest.limits(request, limits);
    }

    /** @return where requests carry their own limits and their bound, or {@code null} if the rule's limits are fixed */
    public RequestLimits fromRequest() {
        return fromRequest;
    }

    public Mode mode() {
        return mode;
    }

    public StoreFailurePolicy onStoreFailure() {
        return onStoreFailure;
    }

    public CostSpec cost() {
        return cost;
    }

    /** @return the overrides by key, in order */
    public Map<String, BucketLimits> overrides() {
        return overrides;
    }

    /** @return the live values as their attributes write them: {@code limits}, {@code mode}, {@code on-store-failure}, {@code overrides} */
    public Map<String, String> values() {
        Map<String, String> values = new LinkedHashMap<>();
        values.put(LIMITS, limits.text());
        values.put(MODE, mode.name().toLowerCase(Locale.ROOT));
        values.put(ON_STORE_FAILURE, onStoreFailure.name().toLowerCase(Locale.ROOT));
        values.put(OVERRIDES, Overrides.format(overrides));
        if (fromRequest != null) {
            values.put(MAX_LIMIT, fromRequest.bound().toString());
        }
        return Collections.unmodifiableMap(values);
    }

    /**
     * @return the live values as logs and {@link io.tollgate.RateLimitRuleChanged} show them: as {@link #values()}
     *         writes them, but each override's key by its hash ({@link io.tollgate.internal.core.BucketKeys#hash}), as
     *         events and the admin resource name keys
     */
    public Map<String, String> shownValues() {
        Map<String, String> values = new LinkedHashMap<>(values());
        values.put(OVERRIDES, Overrides.formatHashed(overrides));
        return Collections.unmodifiableMap(values);
    }

    /** @return whether {@code other} decides as this snapshot does (whichever rule it is of) */
    public boolean sameValues(LiveRule other) {
        return values().equals(other.values()) && cost.maxCost() == other.cost.maxCost();
    }

    @Override
    public String toString() {
        return limits.limits() + " mode=" + values().get(MODE) + " on-store-failure=" + values().get(ON_STORE_FAILURE)
                + (overrides.isEmpty() ? "" : " overrides=" + Overrides.formatHashed(overrides))
                + (fromRequest == null ? "" : " " + fromRequest);
    }
}
