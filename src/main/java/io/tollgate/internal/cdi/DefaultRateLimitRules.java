package io.tollgate.internal.cdi;

import io.tollgate.RateLimitRules;
import io.tollgate.internal.runtime.LiveRules;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;

/** The injectable {@link RateLimitRules}. */
@ApplicationScoped
public class DefaultRateLimitRules implements RateLimitRules {

    @Inject
    RunningTollgate extension;

    @Override
    public Map<String, String> change(String rule, Map<String, String> attributes) {
        return rules().change(rule, attributes);
    }

    @Override
    public Map<String, String> override(String rule, String key, String limits) {
        return rules().override(rule, key, limits);
    }

    @Override
    public Map<String, String> removeOverride(String rule, String key) {
        return rules().removeOverride(rule, key);
    }

    @Override
    public Map<String, String> revert(String rule) {
        return rules().revert(rule);
    }

    @Override
    public Map<String, String> current(String rule) {
        return rules().current(rule);
    }

    @Override
    public Map<String, String> changes(String rule) {
        return rules().changes(rule);
    }

    private LiveRules rules() {
        return extension.tollgate().liveRules();
    }
}
