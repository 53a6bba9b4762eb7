package io.tollgate.simulator;

import java.util.ArrayList;
import java.util.List;

/**
 * What a token bucket must have done, worked out from its definition and nothing of Tollgate's code:
 * {@code tokens} added every {@code periodMicros}, capacity {@code burst}, full at the start. Every
 * quantity is scaled by the period, so all of it is exact integer arithmetic.
 */
final class BucketOracle {

    /** A request to one bucket: when, how much, and whether the engine granted it. */
    record Request(long at, long cost, boolean granted) {
    }

    /** One limit, as the rule's text configured it. */
    record LimitSpec(long tokens, long periodMicros, long burst) {
    }

    private BucketOracle() {
    }

    /**
     * The level of a bucket at t is the least, over every earlier instant s, of
     * {@code burst + rate × (t - s) - (tokens granted from s up to t)}, and a full bucket (s = t): the
     * least is reached with s at a grant. A request of cost c must be granted exactly when every limit's
     * level is at least c. With {@code G} the tokens granted before t and {@code G_i} those before grant
     * i, the window from grant i is worth {@code burst + rate × t - G - (rate × t_i - G_i)}, so the least
     * over i only needs the largest {@code rate × t_i - G_i} so far (all scaled by the period).
     *
     * @return the requests whose decision differs from that (empty when the engine was exact)
     */
    static List<String> wrongDecisions(List<Request> requests, List<LimitSpec> limits) {
        List<String> wrong = new ArrayList<>();
        long granted = 0;
        long[] bestStart = new long[limits.size()];
        java.util.Arrays.fill(bestStart, Long.MIN_VALUE);
        for (Request r : requests) {
            boolean enough = true;
            for (int l = 0; l < limits.size(); l++) {
                LimitSpec limit = limits.get(l);
                long p = limit.periodMicros;
                long level = limit.burst * p; // s = t: a full bucket
                if (bestStart[l] != Long.MIN_VALUE) {
                    level = Math.min(level, limit.burst * p + limit.tokens * r.at - granted * p - bestStart[l]);
                }
                enough &= level >= r.cost * p;
            }
            if (enough != r.granted) {
                wrong.add("t=" + r.at + "us cost " + r.cost + ": the bucket " + (enough ? "had" : "lacked") + " the tokens but the engine "
                        + (r.granted ? "granted" : "denied"));
                if (wrong.size() > 10) {
                    break;
                }
            }
            if (r.granted) {
                for (int l = 0; l < limits.size(); l++) {
                    LimitSpec limit = limits.get(l);
                    bestStart[l] = Math.max(bestStart[l], limit.tokens * r.at - granted * limit.periodMicros);
                }
                granted += r.cost;
            }
        }
        return wrong;
    }

    /**
     * Checks every window between two grants: the tokens granted in it never exceed
     * {@code burst + rate × T}.
     *
     * @return the least headroom over all windows in tokens (NaN without grants); throws if a window over-grants
     */
    static double leastHeadroom(List<Request> requests, LimitSpec limit) {
        List<Request> grants = requests.stream().filter(Request::granted).toList();
        long p = limit.periodMicros;
        long least = Long.MAX_VALUE;
        for (int i = 0; i < grants.size(); i++) {
            long granted = 0;
            for (int j = i; j < grants.size(); j++) {
                granted += grants.get(j).cost;
                long slack = limit.burst * p + limit.tokens * (grants.get(j).at - grants.get(i).at) - granted * p;
                if (slack < 0) {
                    throw new AssertionError("over-grant: " + granted + " tokens between t=" + grants.get(i).at + " and t="
                            + grants.get(j).at + "us, more than burst " + limit.burst + " + " + limit.tokens + "/" + p + "us x T");
                }
                least = Math.min(least, slack);
            }
        }
        return grants.isEmpty() ? Double.NaN : least / (double) p;
    }
}
