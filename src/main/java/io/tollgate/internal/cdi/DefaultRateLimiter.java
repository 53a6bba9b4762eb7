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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** The injectable {@link RateLimiter}. */
@ApplicationScoped
public class DefaultRateLimiter implements RateLimiter {

    private static final TokenWait WAIT = new TokenWait(Sleeper.SYSTEM);

    @Inject
    RunningTollgate extension;

    @Override
    public Decision tryAcquire(String rule, String key, long cost) {
        Tollgate tollgate = extension.tollgate();
        RuleConfig resolved = rule(tollgate, rule);
        return tollgate.enabled() ? tollgate.limiter().check(resolved, key(key), cost) : Tollgate.unlimited(resolved, key(key), cost);
    }

    @Override
    public Decision acquire(String rule, String key, long cost, Duration maxWait) throws InterruptedException {
        Tollgate tollgate = extension.tollgate();
        RuleConfig resolved = rule(tollgate, rule);
        TokenWait.checkMaxWait(maxWait);
        String bucket = key(key);
        if (!tollgate.enabled()) {
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted before acquiring tokens");
            }
            return Tollgate.unlimited(resolved, bucket, cost);
        }
        return WAIT.acquire(() -> tollgate.limiter().check(resolved, bucket, cost), maxWait);
    }

    @Override
    public CompletionStage<Decision> tryAcquireAsync(String rule, String key, long cost) {
        Tollgate tollgate = extension.tollgate();
        RuleConfig resolved = rule(tollgate, rule);
        return tollgate.enabled() ? tollgate.limiter().checkAsync(resolved, key(key), cost)
                : CompletableFuture.completedFuture(Tollgate.unlimited(resolved, key(key), cost));
    }

    @Override
    public boolean refund(String rule, String key, long tokens) {
        Tollgate tollgate = extension.tollgate();
        RuleConfig resolved = rule(tollgate, rule);
        if (!tollgate.enabled()) {
            Tollgate.unlimited(resolved, key(key), tokens); // refused as when enabled
            return true; // nothing was charged: nothing is owed
        }
        return tollgate.limiter().refund(resolved, key(key), tokens) != null;
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
