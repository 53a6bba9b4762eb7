package io.tollgate.internal.config;

import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.internal.request.CostSpec;
import io.tollgate.internal.request.ExemptSpec;
import io.tollgate.internal.request.IncomingRequest;
import io.tollgate.internal.request.KeySpec;
import io.tollgate.internal.request.MatchSpec;
import io.tollgate.internal.request.OutcomeCharging;
import io.tollgate.internal.request.PathPattern;
import java.util.List;
import java.util.Map;

/**
 * One resolved, validated rule: its identity (name, key, match, paths), fixed at deployment, and its live part
 * ({@link LiveRule}: limits, mode, store-failure policy, cost bounds, overrides), one immutable snapshot behind a
 * volatile reference that a change at runtime replaces whole. The accessors of the live part each read the
 * current snapshot; a decision reads {@link #live()} once instead.
 */
public final class RuleConfig {

    private final String name;
    private final KeySpec key;
    private final MatchSpec match;
    private final List<PathPattern> paths;
    private final ExemptSpec exempt;
    private final MissingKeyPolicy onMissingKey;
    private final BanRule ban;
    private final OutcomeCharging outcomes;
    private volatile LiveRule live;

    RuleConfig(String name, List<Limit> limits, KeySpec key, CostSpec cost, MatchSpec match, List<PathPattern> paths,
            Mode mode, StoreFailurePolicy onStoreFailure, ExemptSpec exempt, MissingKeyPolicy onMissingKey,
            BanRule ban, OutcomeCharging outcomes) {
        this.name = name;
        this.key = key;
        this.match = match;
        this.paths = List.copyOf(paths);
        this.exempt = exempt;
        this.onMissingKey = onMissingKey;
        this.ban = ban;
        this.outcomes = outcomes;
        this.live = new LiveRule(this, BucketLimits.of(limits), mode, onStoreFailure, cost, Map.of());
    }

    /** @return the live part as it stands: read it once per decision */
    public LiveRule live() {
        return live;
    }

    /** Replaces the live part whole. */
    void live(LiveRule next) {
        live = next.rule() == this ? next : next.of(this);
    }

    public String name() {
        return name;
    }

    public List<Limit> limits() {
        return live.limits().limits();
    }

    public TokenBucket bucket() {
        return live.limits().bucket();
    }

    public KeySpec key() {
        return key;
    }

    public CostSpec cost() {
        return live.cost();
    }

    public MatchSpec match() {
        return match;
    }

    /** @return the conditions that let a request through untouched by this rule */
    public ExemptSpec exempt() {
        return exempt;
    }

    /** @return whether the rule applies to {@code request} ({@code null}: outside one): it matches, and is not exempt */
    public boolean appliesTo(IncomingRequest request) {
        return match.matches(request) && !exempt.exempts(request);
    }

    /** @return what a request without a part of the key gets */
    public MissingKeyPolicy onMissingKey() {
        return onMissingKey;
    }

    /** @return the path patterns that apply this rule without an annotation; empty if none */
    public List<PathPattern> paths() {
        return paths;
    }

    /** @return whether {@code path} matches one of {@link #paths()} */
    public boolean appliesToPath(String path) {
        for (PathPattern pattern : paths) {
            if (pattern.matches(path)) {
                return true;
            }
        }
        return false;
    }

    public Mode mode() {
        return live.mode();
    }

    public StoreFailurePolicy onStoreFailure() {
        return live.onStoreFailure();
    }

    /** @return the rule's temporary ban after repeated denials, or {@code null} if it has none */
    public BanRule ban() {
        return ban;
    }

    /** @return which outcomes keep a request's charge ({@code charge-on}, {@code refund-on}) */
    public OutcomeCharging outcomes() {
        return outcomes;
    }

    @Override
    public String toString() {
        LiveRule now = live;
        return name + " " + now.limits().limits() + " key=" + key + " cost=" + now.cost() + (match.isAll() ? "" : " match=" + match)
                + (paths.isEmpty() ? "" : " paths=" + paths) + " mode=" + now.mode() + " on-store-failure=" + now.onStoreFailure()
                + (exempt.isNone() ? "" : " exempt=" + exempt)
                + (onMissingKey == MissingKeyPolicy.SHARED ? "" : " on-missing-key=" + onMissingKey)
                + (now.overrides().isEmpty() ? "" : " overrides=" + now.values().get(LiveRule.OVERRIDES))
                + (ban == null ? "" : " " + ban) + outcomes;
    }
}
