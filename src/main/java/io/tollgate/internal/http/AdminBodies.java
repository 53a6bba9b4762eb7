package io.tollgate.internal.http;

import io.tollgate.BucketStatus;
import io.tollgate.DeniedKey;
import io.tollgate.KeyBan;
import io.tollgate.RuleDescription;
import java.time.Duration;
import java.util.List;

/** The JSON bodies of the admin resource: the rules, a bucket, and RFC 9457 problems for refused calls. */
public final class AdminBodies {

    /** The most keys one request may ask for. */
    static final int MAX_LIMIT = 1000;

    private AdminBodies() {
    }

    /** @return the rules as an array of objects, each attribute in its configuration syntax, periods in ISO-8601 */
    public static String rules(List<RuleDescription> rules) {
        StringBuilder out = new StringBuilder(128 * rules.size() + 2).append('[');
        for (RuleDescription rule : rules) {
            out.append(out.length() > 1 ? "," : "").append("{\"name\":").append(ProblemBodies.quote(rule.name())).append(",\"limits\":[");
            for (int i = 0; i < rule.limits().size(); i++) {
                RuleDescription.Limit limit = rule.limits().get(i);
                out.append(i > 0 ? "," : "").append("{\"tokens\":").append(limit.tokens())
                        .append(",\"period\":").append(ProblemBodies.quote(limit.period().toString()))
                        .append(",\"burst\":").append(limit.burst()).append('}');
            }
            out.append("],\"key\":").append(ProblemBodies.quote(rule.key()))
                    .append(",\"cost\":").append(ProblemBodies.quote(rule.cost()))
                    .append(",\"match\":").append(ProblemBodies.quote(rule.match()))
                    .append(",\"exempt\":").append(ProblemBodies.quote(rule.exempt()))
                    .append(",\"onMissingKey\":").append(ProblemBodies.quote(rule.onMissingKey()))
                    .append(",\"paths\":[").append(String.join(",", rule.paths().stream().map(ProblemBodies::quote).toList())).append(']')
                    .append(",\"mode\":").append(ProblemBodies.quote(rule.mode()))
                    .append(",\"onStoreFailure\":").append(ProblemBodies.quote(rule.onStoreFailure()))
                    .append(",\"overrides\":{");
            int before = out.length();
            rule.overrides().forEach((keyHash, limits) -> out.append(out.length() > before ? "," : "")
                    .append(ProblemBodies.quote(keyHash)).append(':').append(ProblemBodies.quote(limits)));
            out.append("},\"ban\":").append(ProblemBodies.quote(rule.ban()))
                    .append(",\"limitsFrom\":").append(ProblemBodies.quote(rule.limitsFrom()))
                    .append(",\"maxLimit\":").append(ProblemBodies.quote(rule.maxLimit())).append('}');
        }
        return out.append(']').toString();
    }

    /**
     * @return a bucket: the rule, the key's hash, whether the store answered, whether it held a bucket of the key,
     *         per limit what is left, and when the key's ban ends ({@code null} without one)
     */
    public static String bucket(BucketStatus status) {
        StringBuilder out = new StringBuilder(160).append("{\"rule\":").append(ProblemBodies.quote(status.rule()))
                .append(",\"keyHash\":").append(ProblemBodies.quote(status.keyHash()))
                .append(",\"fromStore\":").append(status.fromStore())
                .append(",\"found\":").append(status.found())
                .append(",\"full\":").append(status.full())
                .append(",\"bannedUntil\":").append(status.banned() ? ProblemBodies.quote(status.bannedUntil().toString()) : "null")
                .append(",\"limits\":[");
        for (int i = 0; i < status.limits().size(); i++) {
            BucketStatus.LimitStatus limit = status.limits().get(i);
            out.append(i > 0 ? "," : "").append("{\"remaining\":").append(limit.remaining())
                    .append(",\"burst\":").append(limit.burst())
                    .append(",\"untilFullSeconds\":").append(seconds(limit.untilFull())).append('}');
        }
        return out.append("]}").toString();
    }

    /** @return the bans of a rule: an array of the keys' hashes and when their bans end (ISO-8601) */
    public static String bans(List<KeyBan> bans) {
        StringBuilder out = new StringBuilder(96 * bans.size() + 2).append('[');
        for (KeyBan ban : bans) {
            out.append(out.length() > 1 ? "," : "").append("{\"keyHash\":").append(ProblemBodies.quote(ban.keyHash()))
                    .append(",\"until\":").append(ProblemBodies.quote(ban.until().toString())).append('}');
        }
        return out.append(']').toString();
    }

    /** @return whether a lift found a ban: the rule, the key's hash, and {@code lifted} */
    public static String lifted(String rule, String keyHash, boolean lifted) {
        return "{\"rule\":" + ProblemBodies.quote(rule) + ",\"keyHash\":" + ProblemBodies.quote(keyHash) + ",\"lifted\":" + lifted + "}";
    }

    /**
    /** @return the most denied keys of a rule: the rule, and per key its hash, its count and the count's largest error */
    public static String topDenied(String rule, List<DeniedKey> keys) {
        StringBuilder out = new StringBuilder(32 + 80 * keys.size()).append("{\"rule\":").append(ProblemBodies.quote(rule))
                .append(",\"keys\":[");
        for (int i = 0; i < keys.size(); i++) {
            DeniedKey key = keys.get(i);
            out.append(i > 0 ? "," : "").append("{\"keyHash\":").append(ProblemBodies.quote(key.keyHash()))
                    .append(",\"count\":").append(key.count())
                    .append(",\"maxError\":").append(key.maxError()).append('}');
        }
        return out.append("]}").toString();
    }

    /**
     * @return the {@code limit} query parameter as a number from 1 to 1000
     * @throws BadParameterException if it is not
     */
    public static int limit(String value) {
        try {
            int limit = Integer.parseInt(value.trim());
            if (limit >= 1 && limit <= MAX_LIMIT) {
                return limit;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new BadParameterException("limit = '" + value + "': a number of keys from 1 to " + MAX_LIMIT);
    }

    /** @return an RFC 9457 problem of type {@code about:blank}: the status, its title, and what went wrong */
    public static String problem(int status, String title, String detail) {
        return "{\"type\":\"about:blank\",\"title\":" + ProblemBodies.quote(title) + ",\"status\":" + status
                + ",\"detail\":" + ProblemBodies.quote(detail) + "}";
    }

    /** A request's parameter that is not what the resource takes: the caller's mistake, answered 400. */
    public static final class BadParameterException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        BadParameterException(String message) {
            super(message);
        }
    }

    private static long seconds(Duration duration) {
        return duration.getSeconds() + (duration.getNano() > 0 ? 1 : 0);
    }
}
