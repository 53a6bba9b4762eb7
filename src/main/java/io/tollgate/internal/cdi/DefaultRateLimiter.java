package io.tollgate.internal.cdi;

import io.tollgate.Decision;
import io.tollgate.RateLimiter;
import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.limiter.Sleeper;
import io.tollgate.internal.limiter.TokenWait;
import io.tollgate.internal.runtime.Tollgate;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.CompletionStage;

/** The injectable {@link RateLimiter}. */
@ApplicationScoped
public class DefaultRateLimiter implements RateLimiter {

    @Inject
    TollgateExtension extension;

    @Override
    public Decision tryAcquire(String rule, String key, long cost) {
        Tollgate tollgate = extension.tollgate();
        return tollgate.limiter().check(rule(tollgate, rule), key(key), cost);
    }

    @Override
    public Decision acquire(String rule, String key, long cost, Duration maxWait) throws InterruptedException {
        Tollgate tollgate = extension.tollgate();
        RuleConfig resolved = rule(tollgate, rule);
        TokenWait.checkMaxWait(maxWait);
        String bucket = key(key);
        return new TokenWait(Sleeper.SYSTEM).acquire(() -> tollgate.limiter().check(resolved, bucket, cost), maxWait);
    }

    @Override
    public CompletionStage<Decision> tryAcquireAsync(String rule, String key, long cost) {
        Tollgate tollgate = extension.tollgate();
        return tollgate.limiter().checkAsync(rule(tollgate, rule), key(key), cost);
    }

    @Override
    public boolean refund(String rule, String key, long tokens) {
        Tollgate tollgate = extension.tollgate();
        return tollgate.limiter().refund(rule(tollgate, rule), key(key), tokens) != null;
    }

    private static RuleConfig rule(Tollgate tollgate, String name) {
        RuleConfig rule = name == null ? null : tollgate.config().rule(name);
        if (rule == null) {
            throw new IllegalArgumentException("rule = '" + name + "': no such rule; configured rules are "
                    + tollgate.config().rules().keySet());
        }
        return rule;
    }

    private static String key(String key) {
        return key == null ? "" : key;
    }
}
