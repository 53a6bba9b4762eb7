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
 * Writes the rate-limit headers of the enforced rules a request went through. Rules in shadow mode,
 * decisions made without the store and bans are not advertised.
 *
 * <ul>
 * <li>IETF (draft-ietf-httpapi-ratelimit-headers-11): {@code RateLimit-Policy: "search";q=10;w=1} with one
 * item per limit ({@code q} the tokens the limit refills in a window of {@code w} whole seconds: its rate), and
 * {@code RateLimit: "search";r=19;t=1} with one item per rule ({@code r} the whole tokens left in its
 * tightest limit, {@code t} the seconds, rounded up, until that limit holds one more: within them the client
 * can use no more than {@code r}; no {@code t} when the limit is full). A rule's second and later limits are
 * {@code "search.1"}, ...
 * <li>legacy / x-ratelimit: {@code [X-]RateLimit-Limit}, {@code -Remaining}, {@code -Reset} (seconds until
 * full) of the rule with the fewest tokens left.
 * </ul>
 */
public final class RateLimitHeaders {

    private static final long MICROS_PER_SECOND = 1_000_000L;

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
            header.accept(prefix + "Limit", Long.toString(tightest.burst()));
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
            List<Limit> limits = check.limits();
            for (int i = 0; i < limits.size(); i++) {
                Limit limit = limits.get(i);
                separate(policy).append('"');
                appendId(policy, check.rule().name(), i);
                policy.append("\";q=").append(limit.tokensPerWindow()).append(";w=").append(limit.windowSeconds());
            }
            Decision decision = check.decision();
            separate(current).append('"');
            appendId(current, check.rule().name(), decision.limitIndex());
            current.append("\";r=").append(decision.remaining());
            long nextToken = nextTokenSeconds(limits.get(decision.limitIndex()), decision);
            if (nextToken > 0) {
                current.append(";t=").append(nextToken);
            }
        }
        if (policy.length() > 0) {
            header.accept("RateLimit-Policy", policy.toString());
            header.accept("RateLimit", current.toString());
        }
    }

    /**
     * @return the {@code t} of {@code decision}: whole seconds, rounded up, until its limit holds one more token;
     *         0 when it is full. Never more than a denial's exact wait, so {@code Retry-After} is never earlier.
     */
    public static long nextTokenSeconds(Limit limit, Decision decision) {
        long micros = limit.nextTokenMicros(decision.remaining(), decision.resetAfterMicros());
        return micros == 0 ? 0 : Math.floorDiv(micros + MICROS_PER_SECOND - 1, MICROS_PER_SECOND);
    }

    private static boolean advertised(RuleCheck check) {
        return check.mode() == Mode.ENFORCE && !check.decision().storeUnavailable() && !check.decision().banned();
    }

    private static StringBuilder separate(StringBuilder field) {
        return field.length() == 0 ? field : field.append(", ");
    }

    /** @return the name of a rule's limit as the headers and problem bodies give it: {@code search}, {@code search.1} */
    public static String policyId(String rule, int index) {
        return index == 0 ? rule : rule + "." + index;
    }

    /** The limit's name, escaped for a structured-field string (the quotes are the caller's). */
    private static void appendId(StringBuilder out, String rule, int index) {
        String name = policyId(rule, index);
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '\\' || c == '"') {
                out.append('\\');
            }
            out.append(c);
        }
    }
}
