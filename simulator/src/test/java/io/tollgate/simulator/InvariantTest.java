package io.tollgate.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tollgate.simulator.report.Lane;
import io.tollgate.simulator.report.Result;
import io.tollgate.simulator.report.RowStats;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Long random runs through the simulator, judged by {@link BucketOracle}: every decision is the one
 * the bucket's definition demands (granted exactly when every limit holds the cost), no window of
 * time is granted more than {@code burst + rate × T}, and the headroom the table reports is the least
 * the oracle finds. Random rules (rates in every syntax, one or two limits, costs), random traffic
 * (phases of every kind, Poisson and even), one shared bucket or one per client; one run covers
 * three hours. The seed is printed; {@code -Dtollgate.sim.seed=<seed>} replays a run.
 */
class InvariantTest {

    private static final String[][] PERIODS = {{"s", "1000000"}, {"100ms", "100000"}, {"2s", "2000000"}, {"m", "60000000"},
        {"250ms", "250000"}};

    @Test
    void randomRunsKeepTheBucketInvariantAndDecideExactly() {
        long seed = Long.getLong("tollgate.sim.seed", System.nanoTime());
        System.out.println("InvariantTest seed " + seed + " (replay: -Dtollgate.sim.seed=" + seed + ")");
        SplittableRandom random = new SplittableRandom(seed);
        int decisions = 0;
        for (int run = 0; run < 12; run++) {
            decisions += oneRun(random, run, run == 0 ? 3 * 3600 : 300 + random.nextInt(1500));
        }
        System.out.println("InvariantTest: " + decisions + " decisions checked, seed " + seed);
    }

    private int oneRun(SplittableRandom random, int run, int seconds) {
        List<BucketOracle.LimitSpec> limits = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        int count = random.nextInt(4) == 0 ? 2 : 1;
        for (int l = 0; l < count; l++) {
            String[] period = PERIODS[random.nextInt(PERIODS.length)];
            long tokens = 1 + random.nextInt(period[0].equals("m") ? 120 : period[0].equals("100ms") ? 2 : 8);
            long burst = 1 + random.nextInt(40);
            limits.add(new BucketOracle.LimitSpec(tokens, Long.parseLong(period[1]), burst));
            texts.add(tokens + "/" + period[0] + " burst " + burst);
        }
        long maxCost = limits.stream().mapToLong(BucketOracle.LimitSpec::burst).min().orElseThrow();
        boolean shared = random.nextBoolean();
        List<String> lines = new ArrayList<>(List.of("simulation.seed=" + random.nextLong(),
                "tollgate.rules.r.limits=" + String.join(", ", texts),
                "tollgate.rules.r.key=" + (shared ? "global" : "header:X-Client"),
                "tollgate.rules.r.cost=header:X-Cost"));
        int clients = 1 + random.nextInt(3);
        long[] costs = new long[clients];
        double rate = limits.get(0).tokens() * 1e6 / limits.get(0).periodMicros();
        for (int c = 0; c < clients; c++) {
            costs[c] = 1 + random.nextInt((int) Math.min(maxCost, 4));
            String name = "c" + c;
            lines.add("client." + name + ".phases=" + phases(random, seconds, rate / costs[c]));
            lines.add("client." + name + ".arrivals=" + (random.nextBoolean() ? "poisson" : "even"));
            lines.add("client." + name + ".cost=" + costs[c]);
            lines.add("client." + name + ".cost-header=X-Cost");
            lines.add("client." + name + ".header.X-Client=" + name);
        }
        Result result = Scenarios.run(lines.toArray(String[]::new));

        List<List<BucketOracle.Request>> buckets = new ArrayList<>();
        if (shared) {
            buckets.add(merged(result, costs));
        } else {
            for (int c = 0; c < clients; c++) {
                buckets.add(requests(result.lanes().get(c), costs[c]));
            }
        }
        int decisions = 0;
        for (int b = 0; b < buckets.size(); b++) {
            List<BucketOracle.Request> requests = buckets.get(b);
            decisions += requests.size();
            String context = "run " + run + " " + lines + " bucket " + b;
            assertThat(BucketOracle.wrongDecisions(requests, limits)).as(context).isEmpty();
            double least = Double.NaN;
            for (BucketOracle.LimitSpec limit : limits) {
                double headroom = BucketOracle.leastHeadroom(requests, limit);
                least = Double.isNaN(least) ? headroom : Math.min(least, headroom);
            }
            RowStats reported = shared ? result.total() : result.rows().get(b);
            if (Double.isNaN(least)) {
                assertThat(reported.headroom()).as(context).isNaN();
            } else {
                assertThat(reported.headroom()).as(context).isCloseTo(least, within(1e-9)).isGreaterThanOrEqualTo(0);
            }
        }
        return decisions;
    }

    /** Phases filling {@code seconds}: a mix around the rate (the client's share of it), above it and below. */
    private static String phases(SplittableRandom random, int seconds, double rate) {
        List<String> phases = new ArrayList<>();
        int left = seconds;
        while (left > 0) {
            int length = Math.min(left, 10 + random.nextInt(Math.max(11, seconds / 4)));
            double r = Math.max(0.05, rate * (0.2 + 3 * random.nextDouble()));
            String rateText = String.format(java.util.Locale.ROOT, "%.3f/s", r);
            switch (random.nextInt(5)) {
                case 0:
                    phases.add("steady " + length + "s " + rateText);
                    break;
                case 1:
                    phases.add("burst " + length + "s " + String.format(java.util.Locale.ROOT, "%.3f/s", r * 4));
                    break;
                case 2:
                    phases.add("ramp " + length + "s " + rateText + ".." + String.format(java.util.Locale.ROOT, "%.3f/s", r * 3));
                    break;
                case 3:
                    phases.add("onoff " + length + "s " + String.format(java.util.Locale.ROOT, "%.3f/s", r * 3) + " 2s/5s");
                    break;
                default:
                    phases.add("pause " + length + "s");
                    break;
            }
            left -= length;
        }
        return String.join(", ", phases);
    }

    private static List<BucketOracle.Request> requests(Lane lane, long cost) {
        List<BucketOracle.Request> requests = new ArrayList<>();
        for (int i = 0; i < lane.times().length; i++) {
            requests.add(new BucketOracle.Request(lane.times()[i], cost, lane.outcomes()[i] == Lane.ALLOWED));
        }
        return requests;
    }

    /** Every lane's requests in the order the simulator decided them: by time, then by client. */
    private static List<BucketOracle.Request> merged(Result result, long[] costs) {
        List<long[]> all = new ArrayList<>();
        for (int c = 0; c < result.lanes().size(); c++) {
            Lane lane = result.lanes().get(c);
            for (int i = 0; i < lane.times().length; i++) {
                all.add(new long[] {lane.times()[i], c, i, lane.outcomes()[i] == Lane.ALLOWED ? 1 : 0});
            }
        }
        all.sort(Comparator.<long[]>comparingLong(a -> a[0]).thenComparingLong(a -> a[1]).thenComparingLong(a -> a[2]));
        List<BucketOracle.Request> requests = new ArrayList<>();
        for (long[] a : all) {
            requests.add(new BucketOracle.Request(a[0], costs[(int) a[1]], a[3] == 1));
        }
        return requests;
    }
}
