package io.tollgate.internal.cdi;

import io.tollgate.BucketStatus;
import io.tollgate.DeniedKey;
import io.tollgate.KeyBan;
import io.tollgate.RateLimitAdmin;
import io.tollgate.RuleDescription;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;

/** The injectable {@link RateLimitAdmin}. */
@ApplicationScoped
public class DefaultRateLimitAdmin implements RateLimitAdmin {

    @Inject
    RunningTollgate extension;

    @Override
    public List<RuleDescription> rules() {
        return extension.tollgate().admin().rules();
    }

    @Override
    public BucketStatus inspect(String rule, String key) {
        return extension.tollgate().admin().inspect(rule, key);
    }

    @Override
    public BucketStatus reset(String rule, String key) {
        return extension.tollgate().admin().reset(rule, key);
    }

    @Override
    public List<KeyBan> bans(String rule) {
        return extension.tollgate().admin().bans(rule);
    }

    @Override
    public boolean liftBan(String rule, String key) {
        return extension.tollgate().admin().liftBan(rule, key);
    }

    @Override
    public List<DeniedKey> topDenied(String rule, int limit) {
        return extension.tollgate().admin().topDenied(rule, limit);
    }
}
