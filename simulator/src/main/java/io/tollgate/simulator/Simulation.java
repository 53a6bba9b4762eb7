package io.tollgate.simulator;

import io.tollgate.simulator.engine.Engine;
import io.tollgate.simulator.engine.SimRequest;
import io.tollgate.simulator.engine.Verdict;
import io.tollgate.simulator.report.Recorder;
import io.tollgate.simulator.report.Result;
import io.tollgate.simulator.traffic.Arrivals;
import io.tollgate.simulator.traffic.ClientModel;
import io.tollgate.simulator.traffic.Rates;
import io.tollgate.simulator.traffic.Scenario;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.stream.Collectors;

/**
 * Runs a {@link Scenario}: every client's arrivals, merged in time order, each request decided by
 * Tollgate's engine on the virtual clock. Every random draw comes from the scenario's seed, one
 * independent stream per client, so a seed replays a run exactly.
 */
public final class Simulation {

    /** Where the virtual clock starts: any fixed instant serves, the buckets only see differences. */
    public static final long START = Instant.parse("2026-01-01T00:00:00Z").getEpochSecond() * 1_000_000L;
    /** Points of each lane's token line between requests. */
    static final int LINE_POINTS = 900;
    /** Beyond this many requests a lane's line is drawn from its regular points only. */
    static final int DETAILED_LINE = 4_000;

    private Simulation() {
    }

    /** @return the run's table and chart */
    public static Result run(Scenario scenario) {
        List<ClientModel> clients = scenario.clients();
        Recorder recorder = new Recorder(START, clients.stream().map(ClientModel::name).collect(Collectors.toList()),
                clients.stream().map(ClientModel::count).collect(Collectors.toList()));
        Engine engine = new Engine(scenario.config(), scenario.applied(), scenario.charted(), START, recorder);
        SplittableRandom root = new SplittableRandom(scenario.seed());
        PriorityQueue<Sender> queue = new PriorityQueue<>();
        String[] probes = new String[clients.size()];
        boolean[] detailed = new boolean[clients.size()];
        for (int c = 0; c < clients.size(); c++) {
            ClientModel model = clients.get(c);
            SplittableRandom clientRandom = root.split();
            for (int n = 1; n <= model.count(); n++) {
                Sender sender = new Sender(c, n, model, clientRandom.split());
                if (sender.advance()) {
                    queue.add(sender);
                }
            }
            SimRequest sample = model.request(new SplittableRandom(scenario.seed()), 1, 1);
            probes[c] = engine.charted() == null ? null : engine.chartKey(sample);
            if (probes[c] != null) {
                recorder.lineLabel(c, scenario.charted().name() + " bucket of " + model.name() + (model.count() > 1 ? " #1" : ""));
            }
            detailed[c] = expected(model) <= DETAILED_LINE;
        }
        long span = scenario.durationMicros();
        long step = Math.max(1, span / LINE_POINTS);
        long nextSample = 0;
        while (!queue.isEmpty()) {
            Sender sender = queue.poll();
            long at = sender.next;
            for (; nextSample <= at && nextSample <= span; nextSample += step) {
                sample(engine, recorder, probes, nextSample);
            }
            long cost = sender.model.drawCost(sender.draws, sender.n);
            SimRequest request = sender.model.request(sender.draws, sender.n, cost);
            recorder.begin(sender.client);
            Verdict verdict = engine.decide(START + at, request);
            recorder.record(START + at, sender.client, sender.name, cost, verdict);
            if (sender.n == 1 && detailed[sender.client] && verdict.tokensBefore() >= 0) {
                recorder.tokens(sender.client, START + at, verdict.tokensBefore());
                recorder.tokens(sender.client, START + at, verdict.tokensAfter());
            }
            if (sender.advance()) {
                queue.add(sender);
            }
        }
        for (; nextSample <= span; nextSample += step) {
            sample(engine, recorder, probes, nextSample);
        }
        String rules = describe(scenario.config(), scenario.applied());
        String subtitle = rules + " · " + Rates.formatMicros(span) + " of traffic · seed " + scenario.seed();
        long burst = scenario.charted() == null ? 0 : scenario.charted().limits().get(0).burst();
        return recorder.finish(scenario.title(), subtitle, span, burst);
    }

    /** @return the rules that apply, e.g. {@code api: 10/s burst 50, key ip; items: 5/s burst 10, key ip, paths /items/*} */
    public static String describe(io.tollgate.internal.config.TollgateConfig config, java.util.List<io.tollgate.internal.config.RuleConfig> applied) {
        java.util.List<io.tollgate.internal.config.RuleConfig> rules = new java.util.ArrayList<>(applied);
        config.pathRules().stream().filter(r -> !rules.contains(r)).forEach(rules::add);
        return rules.stream().map(r -> r.name() + ": " + describe(r) + (r.paths().isEmpty() ? "" : ", paths " + r.paths().stream()
                .map(Object::toString).collect(Collectors.joining(" ")))).collect(Collectors.joining("; "));
    }

    /** @return e.g. {@code 10/s burst 50, key ip} */
    public static String describe(io.tollgate.internal.config.RuleConfig rule) {
        String limits = rule.limits().stream().map(Simulation::limit).collect(Collectors.joining(" + "));
        return limits + ", key " + rule.key() + (rule.cost().readsRequest() || !rule.cost().toString().equals("1") ? ", cost " + rule.cost() : "")
                + (rule.mode() == io.tollgate.internal.config.Mode.SHADOW ? ", shadow" : "");
    }

    /** @return e.g. {@code 10/s burst 20}, {@code 1000/1h burst 1000} */
    static String limit(io.tollgate.internal.core.Limit limit) {
        String text = limit.toString();
        return text.startsWith(limit.tokens() + "/1s ") ? limit.tokens() + "/s" + text.substring(text.indexOf(' ')) : text;
    }

    private static void sample(Engine engine, Recorder recorder, String[] probes, long at) {
        for (int c = 0; c < probes.length; c++) {
            if (probes[c] != null) {
                recorder.tokens(c, START + at, engine.peek(START + at, probes[c]));
            }
        }
    }

    private static double expected(ClientModel model) {
        return model.phases().stream().mapToDouble(p -> p.expected(p.durationMicros())).sum();
    }

    /** One client's next request, ordered by time, then by client and number (so ties break the same way every run). */
    private static final class Sender implements Comparable<Sender> {
        final int client;
        final int n;
        final ClientModel model;
        final String name;
        final Arrivals arrivals;
        final SplittableRandom draws;
        long next;

        Sender(int client, int n, ClientModel model, SplittableRandom random) {
            this.client = client;
            this.n = n;
            this.model = model;
            this.name = model.name() + "#" + n;
            this.arrivals = model.arrivals(random.split());
            this.draws = random.split();
        }

        boolean advance() {
            next = arrivals.next();
            return next >= 0;
        }

        @Override
        public int compareTo(Sender o) {
            int byTime = Long.compare(next, o.next);
            if (byTime != 0) {
                return byTime;
            }
            return client != o.client ? Integer.compare(client, o.client) : Integer.compare(n, o.n);
        }
    }
}
