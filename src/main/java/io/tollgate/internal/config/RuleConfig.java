package io.tollgate.internal.config;

import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.internal.request.CostSpec;
import io.tollgate.internal.request.KeySpec;
import io.tollgate.internal.request.MatchSpec;
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
    private final BanRule ban;

    RuleConfig(String name, List<Limit> limits, KeySpec key, CostSpec cost, MatchSpec match, List<PathPattern> paths,
            Mode mode, StoreFailurePolicy onStoreFailure, BanRule ban) {
        this.name = name;
        this.limits = List.copyOf(limits);
        this.bucket = TokenBucket.of(this.limits);
        this.key = key;
        this.cost = cost;
        this.match = match;
        this.paths = List.copyOf(paths);
        this.mode = mode;
        this.onStoreFailure = onStoreFailure;
        this.ban = ban;
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

    /** @return the rule's temporary ban after repeated denials, or {@code null} if it has none */
    public BanRule ban() {
        return ban;
    }

    /** @return the ban that applies to this rule's keys: none in shadow mode, which never bans */
    public BanRule enforcedBan() {
        return mode == Mode.ENFORCE ? ban : null;
    }

    @Override
    public String toString() {
        return name + " " + limits + " key=" + key + " cost=" + cost + (match.isAll() ? "" : " match=" + match)
                + (paths.isEmpty() ? "" : " paths=" + paths) + " mode=" + mode + " on-store-failure=" + onStoreFailure
                + (ban == null ? "" : " " + ban);
    }
}
