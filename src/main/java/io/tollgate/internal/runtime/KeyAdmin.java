package io.tollgate.internal.runtime;

import io.tollgate.BucketStatus;
import io.tollgate.DeniedKey;
import io.tollgate.KeyBan;
import io.tollgate.RateLimitAdmin;
import io.tollgate.RuleDescription;
import io.tollgate.internal.config.LiveRule;
import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.config.TollgateConfig;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.LimitLevel;
import io.tollgate.internal.limiter.DecisionObserver;
import io.tollgate.internal.limiter.TopDenied;
import io.tollgate.internal.store.Bans;
import io.tollgate.internal.store.BucketReading;
import io.tollgate.internal.store.BucketStore;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.logging.Level;
import java.util.logging.Logger;

/** {@link RateLimitAdmin} over the running configuration and store: reads and resets go to the store, never the limiter. */
public final class KeyAdmin implements RateLimitAdmin {

    private static final Logger LOG = Logger.getLogger(KeyAdmin.class.getName());

    private final TollgateConfig config;
    private final BucketStore store;
    private final Bans bans;
    /** The most denied keys of each rule on this member, or {@code null} when {@code tollgate.top-denied=0}. */
    private final TopDenied topDenied;
    /** Told of each reset and each ban lifted (the application's events). */
    private final DecisionObserver observer;

    /**
     * @param bans      the rules' bans, which an inspection shows and an operator lifts
     * @param topDenied the most denied keys of each rule, or {@code null} when none are followed
     * @param observer  told of each reset the store carried out and each ban lifted
     */
    public KeyAdmin(TollgateConfig config, BucketStore store, Bans bans, TopDenied topDenied, DecisionObserver observer) {
        this.config = config;
        this.store = store;
        this.bans = bans;
        this.topDenied = topDenied;
        this.observer = observer;
    }

    @Override
    public List<RuleDescription> rules() {
        return config.rules().values().stream().map(KeyAdmin::describe).toList();
    }

    @Override
    public BucketStatus inspect(String rule, String key) {
        RuleConfig resolved = rule(rule, key);
        String storeKey = BucketKeys.of(resolved.name(), key);
        BucketReading reading;
        try {
            reading = store.read(storeKey);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "The rate-limit store could not be read for rule '" + resolved.name() + "'", e);
            return new BucketStatus(resolved.name(), BucketKeys.hash(key), List.of(), false, false, bannedUntil(resolved, key));
        }
        return status(resolved, key, reading, reading.state() != null, bannedUntil(resolved, key));
    }

    @Override
    public BucketStatus reset(String rule, String key) {
        RuleConfig resolved = rule(rule, key);
        boolean found;
        try {
            found = store.reset(BucketKeys.of(resolved.name(), key));
        } catch (RuntimeException e) {
            throw new IllegalStateException("the rate-limit store failed to reset a bucket of rule '" + resolved.name() + "': " + e, e);
        }
        LOG.info(() -> "Bucket " + BucketKeys.hash(key) + " of rule '" + resolved.name() + "' reset" + (found ? "" : " (it had none)"));
        observer.reset(resolved, key, found);
        BucketStatus after = inspect(rule, key);
        return new BucketStatus(after.rule(), after.keyHash(), after.limits(), after.fromStore(), found, after.bannedUntil());
    }

    @Override
    public List<KeyBan> bans(String rule) {
        String name = rule(rule).name();
        return bans.list(name).stream().map(ban -> new KeyBan(name, ban.keyHash(), ban.until())).toList();
    }

    @Override
    public boolean liftBan(String rule, String key) {
        RuleConfig resolved = rule(rule, key);
        boolean lifted = bans.lift(resolved.name(), key);
        LOG.info(() -> "Ban of " + BucketKeys.hash(key) + " by rule '" + resolved.name() + "' lifted" + (lifted ? "" : " (it had none)"));
        if (lifted) {
            observer.banLifted(resolved, key);
        }
        return lifted;
    }

    private Instant bannedUntil(RuleConfig rule, String key) {
        return bans.until(rule.name(), key).orElse(null);
    }

    @Override
    public List<DeniedKey> topDenied(String rule, int limit) {
        RuleConfig resolved = rule(rule);
        if (limit < 1) {
            throw new IllegalArgumentException("limit = " + limit + ": ask for at least 1 key");
        }
        if (topDenied == null) {
            throw new UnsupportedOperationException("tollgate.top-denied = 0: this application follows no rule's most denied keys");
        }
        return topDenied.top(resolved.name(), limit);
    }

    private RuleConfig rule(String name, String key) {
        RuleConfig rule = rule(name);
        if (key == null) {
            throw new IllegalArgumentException("key = null: a bucket key is a string (the empty one included)");
        }
        return rule;
    }

    private RuleConfig rule(String name) {
        RuleConfig rule = name == null ? null : config.rule(name);
        if (rule == null) {
            throw new IllegalArgumentException("rule = '" + name + "': no such rule; configured rules are " + config.rules().keySet());
        }
        return rule;
    }

    private static BucketStatus status(RuleConfig rule, String key, BucketReading reading, boolean found, Instant bannedUntil) {
        // the key's own limits where the rule overrides them
        List<BucketStatus.LimitStatus> limits = rule.live().limits(key).bucket().levels(reading.state(), reading.nowMicros()).stream()
                .map(KeyAdmin::limitStatus).toList();
        return new BucketStatus(rule.name(), BucketKeys.hash(key), limits, true, found, bannedUntil);
    }

    private static BucketStatus.LimitStatus limitStatus(LimitLevel level) {
        return new BucketStatus.LimitStatus(level.tokens(), level.burst(), Duration.ofNanos(level.untilFullMicros() * 1_000));
    }

    private static RuleDescription describe(RuleConfig rule) {
        LiveRule live = rule.live();
        List<RuleDescription.Limit> limits = live.limits().limits().stream().map(KeyAdmin::describe).toList();
        Map<String, String> overrides = new LinkedHashMap<>();
        live.overrides().forEach((key, override) -> overrides.put(BucketKeys.hash(key), override.text()));
        return new RuleDescription(rule.name(), limits, rule.key().toString(), live.cost().toString(), rule.match().toString(),
                rule.exempt().toString(), lower(rule.onMissingKey()), rule.paths().stream().map(Object::toString).toList(),
                lower(live.mode()), lower(live.onStoreFailure()), overrides, rule.ban() == null ? "" : rule.ban().toString(),
                live.fromRequest() == null ? "" : live.fromRequest().source().toString(),
                live.fromRequest() == null ? "" : live.fromRequest().bound().toString());
    }

    private static RuleDescription.Limit describe(Limit limit) {
        return new RuleDescription.Limit(limit.tokens(), limit.period(), limit.burst());
    }

    private static String lower(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
