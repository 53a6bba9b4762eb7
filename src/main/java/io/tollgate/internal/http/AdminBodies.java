package io.tollgate.internal.http;

import io.tollgate.BucketStatus;
import io.tollgate.RuleDescription;
import java.time.Duration;
import java.util.List;

/** The JSON bodies of the admin resource: the rules, a bucket, and RFC 9457 problems for refused calls. */
public final class AdminBodies {

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
                    .append(",\"paths\":[").append(String.join(",", rule.paths().stream().map(ProblemBodies::quote).toList())).append(']')
                    .append(",\"mode\":").append(ProblemBodies.quote(rule.mode()))
                    .append(",\"onStoreFailure\":").append(ProblemBodies.quote(rule.onStoreFailure())).append('}');
        }
        return out.append(']').toString();
    }

    /** @return a bucket: the rule, the key's hash, whether the store answered, and per limit what is left */
    public static String bucket(BucketStatus status) {
        StringBuilder out = new StringBuilder(160).append("{\"rule\":").append(ProblemBodies.quote(status.rule()))
                .append(",\"keyHash\":").append(ProblemBodies.quote(status.keyHash()))
                .append(",\"fromStore\":").append(status.fromStore())
                .append(",\"full\":").append(status.full())
                .append(",\"limits\":[");
        for (int i = 0; i < status.limits().size(); i++) {
            BucketStatus.LimitStatus limit = status.limits().get(i);
            out.append(i > 0 ? "," : "").append("{\"remaining\":").append(limit.remaining())
                    .append(",\"limit\":").append(limit.limit())
                    .append(",\"untilFullSeconds\":").append(seconds(limit.untilFull())).append('}');
        }
        return out.append("]}").toString();
    }

    /** @return an RFC 9457 problem of type {@code about:blank}: the status, its title, and what went wrong */
    public static String problem(int status, String title, String detail) {
        return "{\"type\":\"about:blank\",\"title\":" + ProblemBodies.quote(title) + ",\"status\":" + status
                + ",\"detail\":" + ProblemBodies.quote(detail) + "}";
    }

    private static long seconds(Duration duration) {
        return duration.getSeconds() + (duration.getNano() > 0 ? 1 : 0);
    }
}
