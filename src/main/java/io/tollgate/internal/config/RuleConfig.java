package io.tollgate.internal.config;

import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.internal.request.CostSpec;
import io.tollgate.internal.request.KeySpec;
import io.tollgate.internal.request.MatchSpec;
import io.tollgate.internal.request.OutcomeCharging;
import io.tollgate.internal.request.PathPattern;
import java.util.List;

/** One resolved, validated rule. Immutable. */
public final class RuleConfig {

    private final String name;
    private final List<Limit> limits;
    private final TokenBucket bucket;
    private final KeySpec key;
    private final CostSpec cost;
    private final MatchSpec match;
    private final List<PathPattern> paths;
    private final Mode mode;
    private final StoreFailurePolicy onStoreFailure;
    private final OutcomeCharging outcomes;

    RuleConfig(String name, List<Limit> limits, KeySpec key, CostSpec cost, MatchSpec match, List<PathPattern> paths,
            Mode mode, StoreFailurePolicy onStoreFailure, OutcomeCharging outcomes) {
        this.name = name;
        this.limits = List.copyOf(limits);
        this.bucket = TokenBucket.of(this.limits);
        this.key = key;
        this.cost = cost;
        this.match = match;
        this.paths = List.copyOf(paths);
        this.mode = mode;
        this.onStoreFailure = onStoreFailure;
        this.outcomes = outcomes;
    }

    public String name() {
        return name;
    }

    public List<Limit> limits() {
        return limits;
    }

    public TokenBucket bucket() {
        return bucket;
    }

    public KeySpec key() {
        return key;
    }

    public CostSpec cost() {
        return cost;
    }

    public MatchSpec match() {
        return match;
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
        return mode;
    }

    public StoreFailurePolicy onStoreFailure() {
        return onStoreFailure;
    }

    /** @return which outcomes keep a request's charge ({@code charge-on}, {@code refund-on}) */
    public OutcomeCharging outcomes() {
        return outcomes;
    }

    @Override
    public String toString() {
        return name + " " + limits + " key=" + key + " cost=" + cost + (match.isAll() ? "" : " match=" + match)
                + (paths.isEmpty() ? "" : " paths=" + paths) + " mode=" + mode + " on-store-failure=" + onStoreFailure + outcomes;
    }
}
