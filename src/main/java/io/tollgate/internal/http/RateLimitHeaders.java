package io.tollgate.internal.http;

import io.tollgate.Decision;
import io.tollgate.internal.config.HeaderStyle;
import io.tollgate.internal.config.Mode;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.limiter.RuleCheck;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Writes the rate-limit headers of the enforced rules a request went through. Rules in shadow mode
 * and decisions made without the store are not advertised.
 *
 * <ul>
 * <li>IETF (draft-ietf-httpapi-ratelimit-headers): {@code RateLimit-Policy: "search";q=20;w=2} with one
 * item per limit ({@code q} the burst, {@code w} the seconds to refill it), and
 * {@code RateLimit: "search";r=19;t=1} with one item per rule ({@code r} the tokens left,
 * {@code t} the seconds until full). A rule's second and later limits are {@code "search.1"}, ...
 * <li>legacy / x-ratelimit: {@code [X-]RateLimit-Limit}, {@code -Remaining}, {@code -Reset} (seconds)
 * of the rule with the fewest tokens left.
 * </ul>
 */
public final class RateLimitHeaders {

    private RateLimitHeaders() {
    }

    public static void write(HeaderStyle style, List<RuleCheck> allChecks, BiConsumer<String, String> header) {
        if (style == HeaderStyle.NONE) {
            return;
        }
        Collection<RuleCheck> checks = latestPerRule(allChecks);
        if (style == HeaderStyle.IETF) {
            writeIetf(checks, header);
            return;
        }
        Decision tightest = null;
        for (RuleCheck check : checks) {
            if (advertised(check) && (tightest == null || check.decision().remaining() < tightest.remaining()
                    || !check.decision().allowed())) {
                tightest = check.decision();
            }
        }
        if (tightest != null) {
            String prefix = style == HeaderStyle.X_RATELIMIT ? "X-RateLimit-" : "RateLimit-";
            header.accept(prefix + "Limit", Long.toString(tightest.limit()));
            header.accept(prefix + "Remaining", Long.toString(tightest.remaining()));
            header.accept(prefix + "Reset", Long.toString(tightest.resetAfterSeconds()));
        }
    }

    /** A rule checked several times in one request (a service called in a loop) is reported as it stands last. */
    private static Collection<RuleCheck> latestPerRule(List<RuleCheck> checks) {
        if (checks.size() < 2) {
            return checks;
        }
        Map<String, RuleCheck> latest = new LinkedHashMap<>();
        for (RuleCheck check : checks) {
            latest.remove(check.rule().name());
            latest.put(check.rule().name(), check);
        }
        return latest.values();
    }

    private static void writeIetf(Collection<RuleCheck> checks, BiConsumer<String, String> header) {
        StringBuilder policy = new StringBuilder();
        StringBuilder current = new StringBuilder();
        for (RuleCheck check : checks) {
            if (!advertised(check)) {
                continue;
            }
            List<Limit> limits = check.rule().limits();
            for (int i = 0; i < limits.size(); i++) {
                Limit limit = limits.get(i);
                separate(policy).append(id(check.rule().name(), i)).append(";q=").append(limit.burst())
                        .append(";w=").append(Math.max(1, (limit.fillMicros() + 999_999) / 1_000_000));
            }
            Decision decision = check.decision();
            separate(current).append(id(check.rule().name(), decision.limitIndex())).append(";r=").append(decision.remaining())
                    .append(";t=").append(decision.resetAfterSeconds());
        }
        if (policy.length() > 0) {
            header.accept("RateLimit-Policy", policy.toString());
            header.accept("RateLimit", current.toString());
        }
    }

    private static boolean advertised(RuleCheck check) {
        return check.rule().mode() == Mode.ENFORCE && !check.decision().storeUnavailable();
    }

    private static StringBuilder separate(StringBuilder field) {
        return field.length() == 0 ? field : field.append(", ");
    }

    /** A structured-field string naming the limit. */
    private static String id(String rule, int index) {
        String name = index == 0 ? rule : rule + "." + index;
        return '"' + name.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
}
