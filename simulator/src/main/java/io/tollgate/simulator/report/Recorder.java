package io.tollgate.simulator.report;

import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.core.Limit;
import io.tollgate.simulator.engine.Engine;
import io.tollgate.simulator.engine.Verdict;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Collects a run as it goes: per row the counts of the table, per lane the points of the chart, per
 * bucket the grants its headroom is computed from. Rows and lanes are the same: one per client,
 * group or key.
 */
public final class Recorder implements Engine.GrantListener {

    private static final long SECOND = 1_000_000;

    private final long start;
    private final List<Row> rows = new ArrayList<>();
    private final Map<String, Grants> buckets = new HashMap<>();
    private int current = -1;

    /** @param start the run's first instant, µs since the epoch; times are recorded from there */
    public Recorder(long start, List<String> names, List<Integer> clients) {
        this.start = start;
        for (int i = 0; i < names.size(); i++) {
            rows.add(new Row(names.get(i), clients.get(i)));
        }
    }

    /** The row whose request is being decided now (grants the engine reports belong to it). */
    public void begin(int row) {
        current = row;
    }

    @Override
    public void granted(RuleConfig rule, String key, long atMicros, long cost) {
        Grants grants = buckets.computeIfAbsent(rule.name() + '\u0000' + key, k -> new Grants(rule));
        grants.times.add(atMicros - start);
        grants.costs.add(cost);
        if (current >= 0) {
            grants.rows.set(current);
        }
    }

    /**
     * @param row      the row (and lane) of the request
     * @param client   the client within the row, for its streak of denials
     * @param cost     what the request really cost (counted if it was let through)
     */
    public void record(long atMicros, int row, String client, long cost, Verdict verdict) {
        Row r = rows.get(row);
        long t = atMicros - start;
        r.requests++;
        Verdict.Outcome outcome = verdict.outcome();
        int[] streak = r.streaks.computeIfAbsent(client, k -> new int[1]);
        if (outcome.limited()) {
            streak[0]++;
            r.longestStreak = Math.max(r.longestStreak, streak[0]);
            r.maxRetryAfter = Math.max(r.maxRetryAfter, verdict.retryAfter());
        } else {
            streak[0] = 0;
        }
        switch (outcome) {
            case DENIED:
                r.denied++;
                break;
            case BAD_COST:
                r.badCost++;
                break;
            case SHADOW_DENIED:
                r.shadowDenied++;
                r.letThrough(t, cost);
                break;
            default:
                r.letThrough(t, cost);
                break;
        }
        r.times.add(t);
        r.tokens.add(verdict.tokensBefore());
        r.outcomes.write(outcome.limited() ? Lane.LIMITED : outcome == Verdict.Outcome.BAD_COST ? Lane.BAD_COST : Lane.ALLOWED);
    }

    /** A point of the token line of lane {@code row}. */
    public void tokens(int row, long atMicros, long tokens) {
        Row r = rows.get(row);
        r.lineTimes.add(atMicros - start);
        r.lineTokens.add(tokens);
    }

    /** Names whose bucket lane {@code row}'s token line shows. */
    public void lineLabel(int row, String bucket) {
        rows.get(row).bucket = bucket;
    }

    /** @return the table and the chart of the run */
    public Result finish(String title, String subtitle, long spanMicros, long burst) {
        double[] headroom = new double[rows.size()];
        java.util.Arrays.fill(headroom, Double.NaN);
        double overall = Double.NaN;
        for (Grants grants : buckets.values()) {
            double least = grants.headroom();
            overall = min(overall, least);
            for (int i = grants.rows.nextSetBit(0); i >= 0; i = grants.rows.nextSetBit(i + 1)) {
                headroom[i] = min(headroom[i], least);
            }
        }
        List<RowStats> stats = new ArrayList<>();
        List<Lane> lanes = new ArrayList<>();
        boolean shadow = false;
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            stats.add(r.stats(headroom[i]));
            shadow |= r.shadowDenied > 0;
            lanes.add(new Lane(r.clients > 1 ? r.name + " (" + r.clients + " clients)" : r.name, r.times.toArray(), r.tokens.toArray(), r.outcomes.toByteArray(),
                    r.lineTimes.toArray(), r.lineTokens.toArray(), r.bucket));
        }
        RowStats total = total(stats, overall);
        return new Result(title, subtitle, stats, total, lanes, spanMicros, burst, shadow);
    }

    private RowStats total(List<RowStats> stats, double headroom) {
        long requests = 0;
        long allowed = 0;
        long denied = 0;
        long shadowDenied = 0;
        long badCost = 0;
        long streak = 0;
        long retry = 0;
        long cost = 0;
        int clients = 0;
        for (RowStats s : stats) {
            clients += s.clients();
            requests += s.requests();
            allowed += s.allowed();
            denied += s.denied();
            shadowDenied += s.shadowDenied();
            badCost += s.badCost();
            streak = Math.max(streak, s.longestStreak());
            retry = Math.max(retry, s.maxRetryAfter());
            cost += s.costAllowed();
        }
        return new RowStats("all", clients, requests, allowed, denied, shadowDenied, badCost, streak, retry, cost,
                peakOfAll(), headroom);
    }

    /** The most cost let through within one second by all rows together. */
    private long peakOfAll() {
        List<long[]> times = new ArrayList<>();
        List<long[]> costs = new ArrayList<>();
        int n = 0;
        for (Row r : rows) {
            times.add(r.passTimes.toArray());
            costs.add(r.passCosts.toArray());
            n += r.passTimes.size();
        }
        long[] t = new long[n];
        long[] c = new long[n];
        int[] at = new int[rows.size()];
        for (int k = 0; k < n; k++) { // merge the rows' time-ordered lists
            int best = -1;
            for (int i = 0; i < rows.size(); i++) {
                if (at[i] < times.get(i).length && (best < 0 || times.get(i)[at[i]] < times.get(best)[at[best]])) {
                    best = i;
                }
            }
            t[k] = times.get(best)[at[best]];
            c[k] = costs.get(best)[at[best]++];
        }
        return peak(t, c);
    }

    static long peak(long[] times, long[] costs) {
        long best = 0;
        long sum = 0;
        int first = 0;
        for (int j = 0; j < times.length; j++) {
            sum += costs[j];
            while (times[j] - times[first] >= SECOND) {
                sum -= costs[first++];
            }
            best = Math.max(best, sum);
        }
        return best;
    }

    private static double min(double a, double b) {
        return Double.isNaN(a) ? b : Double.isNaN(b) ? a : Math.min(a, b);
    }

    private static final class Row {
        final String name;
        final int clients;
        long requests;
        long denied;
        long shadowDenied;
        long badCost;
        long longestStreak;
        long maxRetryAfter;
        long costAllowed;
        long allowed;
        final Map<String, int[]> streaks = new LinkedHashMap<>();
        final LongList passTimes = new LongList();
        final LongList passCosts = new LongList();
        final LongList times = new LongList();
        final LongList tokens = new LongList();
        final ByteArrayOutputStream outcomes = new ByteArrayOutputStream();
        final LongList lineTimes = new LongList();
        final LongList lineTokens = new LongList();
        String bucket;

        Row(String name, int clients) {
            this.name = name;
            this.clients = clients;
        }

        void letThrough(long t, long cost) {
            allowed++;
            costAllowed += cost;
            passTimes.add(t);
            passCosts.add(cost);
        }

        RowStats stats(double headroom) {
            return new RowStats(name, clients, requests, allowed, denied, shadowDenied, badCost, longestStreak, maxRetryAfter,
                    costAllowed, peak(passTimes.toArray(), passCosts.toArray()), headroom);
        }
    }

    /** Every grant of one bucket, and the rows that drew on it. */
    private static final class Grants {
        final RuleConfig rule;
        final LongList times = new LongList();
        final LongList costs = new LongList();
        final BitSet rows = new BitSet();

        Grants(RuleConfig rule) {
            this.rule = rule;
        }

        double headroom() {
            double least = Double.NaN;
            long[] t = times.toArray();
            long[] c = costs.toArray();
            for (Limit limit : rule.limits()) {
                least = min(least, Headroom.of(limit, t, c));
            }
            return least;
        }
    }
}
