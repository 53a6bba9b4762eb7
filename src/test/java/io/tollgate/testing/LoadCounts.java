package io.tollgate.testing;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a member's load ({@link MemberCommands}: {@code load}, then {@code stop}) counted: grants per
 * bucket, denials, decisions the owner dropped because they reached it after their deadline, calls
 * that did not answer within the timeout, and other failures (with the first one).
 */
public record LoadCounts(Map<String, Long> allowed, long denied, long late, long timeouts, long errors, String firstError) {

    /** @return the counts in a reply to {@code stop} */
    public static LoadCounts parse(String reply) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String field : reply.trim().split(" ")) {
            int equals = field.indexOf('=');
            fields.put(field.substring(0, equals), field.substring(equals + 1));
        }
        Map<String, Long> allowed = new LinkedHashMap<>();
        for (String entry : fields.get("allowed").split(",")) {
            int equals = entry.lastIndexOf('=');
            allowed.put(entry.substring(0, equals), Long.parseLong(entry.substring(equals + 1)));
        }
        return new LoadCounts(allowed, Long.parseLong(fields.get("denied")), Long.parseLong(fields.get("late")),
                Long.parseLong(fields.get("timeouts")), Long.parseLong(fields.get("errors")), fields.get("error"));
    }

    /** @return the counts of several members' loads added up, bucket by bucket */
    public static LoadCounts sum(List<LoadCounts> loads) {
        Map<String, Long> allowed = new LinkedHashMap<>();
        long denied = 0;
        long late = 0;
        long timeouts = 0;
        long errors = 0;
        String firstError = "null";
        for (LoadCounts load : loads) {
            load.allowed.forEach((key, n) -> allowed.merge(key, n, Long::sum));
            denied += load.denied;
            late += load.late;
            timeouts += load.timeouts;
            errors += load.errors;
            firstError = "null".equals(firstError) ? load.firstError : firstError;
        }
        return new LoadCounts(allowed, denied, late, timeouts, errors, firstError);
    }

    public long granted() {
        return allowed.values().stream().mapToLong(Long::longValue).sum();
    }

    public long decisions() {
        return granted() + denied + late + timeouts + errors;
    }

    /** @return the most any one bucket granted */
    public long mostGranted() {
        return allowed.values().stream().mapToLong(Long::longValue).max().orElse(0);
    }
}
