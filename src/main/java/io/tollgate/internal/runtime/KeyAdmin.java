package io.tollgate.internal.runtime;

import io.tollgate.BucketStatus;
import io.tollgate.DeniedKey;
import io.tollgate.RateLimitAdmin;
import io.tollgate.RuleDescription;
import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.config.TollgateConfig;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.LimitLevel;
import io.tollgate.internal.limiter.TopDenied;
import io.tollgate.internal.store.BucketReading;
import io.tollgate.internal.store.BucketStore;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.logging.Level;
import java.util.logging.Logger;

/** {@link RateLimitAdmin} over the running configuration and store: reads and resets go to the store, never the limiter. */
public final class KeyAdmin implements RateLimitAdmin {

    private static final Logger LOG = Logger.getLogger(KeyAdmin.class.getName());

    private final TollgateConfig config;
    private final BucketStore store;
    /** The most denied keys of each rule on this member, or {@code null} when {@code tollgate.top-denied=0}. */
    private final TopDenied topDenied;

    public KeyAdmin(TollgateConfig config, BucketStore store) {
        this(config, store, null);
    }

    public KeyAdmin(TollgateConfig config, BucketStore store, TopDenied topDenied) {
        this.config = config;
        this.store = store;
        this.topDenied = topDenied;
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
            return new BucketStatus(resolved.name(), BucketKeys.hash(key), List.of(), false);
        }
        return status(resolved, key, reading);
    }

    @Override
    public BucketStatus reset(String rule, String key) {
        RuleConfig resolved = rule(rule, key);
        try {
            store.reset(BucketKeys.of(resolved.name(), key));
        } catch (RuntimeException e) {
            throw new IllegalStateException("the rate-limit store failed to reset a bucket of rule '" + resolved.name() + "': " + e, e);
        }
        LOG.info(() -> "Bucket " + BucketKeys.hash(key) + " of rule '" + resolved.name() + "' reset");
        return inspect(rule, key);
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

    private static BucketStatus status(RuleConfig rule, String key, BucketReading reading) {
        List<BucketStatus.LimitStatus> limits = rule.bucket().levels(reading.state(), reading.nowMicros()).stream()
                .map(KeyAdmin::limitStatus).toList();
        return new BucketStatus(rule.name(), BucketKeys.hash(key), limits, true);
    }

    private static BucketStatus.LimitStatus limitStatus(LimitLevel level) {
        return new BucketStatus.LimitStatus(level.tokens(), level.burst(), Duration.ofNanos(level.untilFullMicros() * 1_000));
    }

    private static RuleDescription describe(RuleConfig rule) {
        List<RuleDescription.Limit> limits = rule.limits().stream().map(KeyAdmin::describe).toList();
        return new RuleDescription(rule.name(), limits, rule.key().toString(), rule.cost().toString(), rule.match().toString(),
                rule.paths().stream().map(Object::toString).toList(), lower(rule.mode()), lower(rule.onStoreFailure()));
    }

    private static RuleDescription.Limit describe(Limit limit) {
        return new RuleDescription.Limit(limit.tokens(), limit.period(), limit.burst());
    }

    private static String lower(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
