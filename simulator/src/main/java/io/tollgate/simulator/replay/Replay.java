package io.tollgate.simulator.replay;

import io.tollgate.simulator.RuleSet;
import io.tollgate.simulator.engine.Engine;
import io.tollgate.simulator.engine.SimRequest;
import io.tollgate.simulator.engine.Verdict;
import io.tollgate.simulator.report.Recorder;
import io.tollgate.simulator.report.Result;
import io.tollgate.simulator.traffic.Rates;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Applies rules to the requests of an access log, in the order and at the times the log recorded
 * them, with Tollgate's engine on a virtual clock. Each request is what the rules would have seen:
 * the client address ({@code ip}), the path (less a prefix: rules' paths are relative to the
 * JAX-RS application), the query, the user ({@code principal}) and the headers the log recorded;
 * the status the server answered is there too, as the header {@code X-Log-Status} (and the method
 * as {@code X-Log-Method}), so a rule can be keyed or matched on it. A log of whole seconds says
 * nothing of when within a second a request came: the requests of one logged instant are spread
 * evenly over it, in log order.
 *
 * <p>The chart has a lane for each of the keys limited most (then busiest) under the charted
 * rule, and one for all other keys.
 */
public final class Replay {

    /** Keys with a lane of their own; the rest share one. */
    public static final int LANES = 4;
    /** Keys listed in the table of who was limited. */
    public static final int LISTED = 20;
    public static final String STATUS_HEADER = "X-Log-Status";
    public static final String METHOD_HEADER = "X-Log-Method";
    static final String OTHERS = "all other keys";
    static final String NOT_LIMITED = "(rule not applied)";
    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);

    private Replay() {
    }

    /**
     * What a replay found.
     *
     * @param result  the chart and table
     * @param limited the keys limited, most first: {@code | key | requests | limited | first | last |} rows
     * @param log     the log as read (bad lines among it)
     * @param limitedLines the log's line numbers of the requests that were (or in shadow mode would have been) limited
     */
    public record Outcome(Result result, List<KeyStats> limited, AccessLog log, List<Integer> limitedLines) {
    }

    /** One key under the charted rule: how often it was limited, and when first and last. */
    public record KeyStats(String key, long requests, long limited, long firstLimited, long lastLimited) {

        public String first() {
            return WHEN.format(Instant.ofEpochSecond(firstLimited / 1_000_000)) + " UTC";
        }

        public String last() {
            return WHEN.format(Instant.ofEpochSecond(lastLimited / 1_000_000)) + " UTC";
        }
    }

    /** A request of the log, ready for the engine. */
    private record Timed(long at, SimRequest request, int line) {
    }

    /** @param stripPrefix removed from the start of every path (the context root and application path), or "" */
    public static Outcome run(AccessLog log, RuleSet rules, String stripPrefix, String title) {
        List<Timed> requests = requests(log, stripPrefix);
        long start = requests.isEmpty() ? 0 : requests.get(0).at;
        long end = requests.isEmpty() ? 0 : requests.get(requests.size() - 1).at;
        // first pass: who is limited
        Map<String, long[]> perKey = new LinkedHashMap<>();
        Engine counting = new Engine(rules.config(), rules.applied(), rules.charted(), start, (rule, key, at, cost) -> { });
        for (Timed timed : requests) {
            String key = keyOf(counting, timed.request);
            Verdict verdict = counting.decide(timed.at, timed.request);
            long[] k = perKey.computeIfAbsent(key, x -> new long[] {0, 0, Long.MAX_VALUE, Long.MIN_VALUE});
            k[0]++;
            if (verdict.outcome().limited()) {
                k[1]++;
                k[2] = Math.min(k[2], timed.at);
                k[3] = Math.max(k[3], timed.at);
            }
        }
        List<KeyStats> ranked = perKey.entrySet().stream()
                .map(e -> new KeyStats(e.getKey(), e.getValue()[0], e.getValue()[1], e.getValue()[2], e.getValue()[3]))
                .sorted(Comparator.comparing((KeyStats k) -> k.key.equals(NOT_LIMITED)) // requests no rule applies to: last
                        .thenComparing(Comparator.comparingLong(KeyStats::limited).reversed())
                        .thenComparing(Comparator.comparingLong(KeyStats::requests).reversed())
                        .thenComparing(KeyStats::key))
                .collect(Collectors.toList());
        List<String> lanes = new ArrayList<>();
        for (KeyStats k : ranked) {
            if (lanes.size() < (ranked.size() > LANES + 1 ? LANES : LANES + 1)) {
                lanes.add(k.key);
            }
        }
        boolean others = ranked.size() > lanes.size();
        List<String> names = new ArrayList<>();
        List<Integer> counts = new ArrayList<>();
        for (String lane : lanes) {
            names.add(lane.isEmpty() ? "(empty key)" : lane);
            counts.add(1);
        }
        if (others) {
            names.add(OTHERS);
            counts.add(ranked.size() - lanes.size());
        }
        // second pass: the chart and the table
        Recorder recorder = new Recorder(start, names, counts);
        Engine engine = new Engine(rules.config(), rules.applied(), rules.charted(), start, recorder);
        Map<String, Integer> laneOf = new HashMap<>();
        for (int i = 0; i < lanes.size(); i++) {
            laneOf.put(lanes.get(i), i);
            if (!lanes.get(i).equals(NOT_LIMITED)) {
                recorder.lineLabel(i, rules.charted().name() + " bucket of " + names.get(i));
            }
        }
        long span = Math.max(1, end - start);
        long step = Math.max(1, span / 900);
        long nextSample = start;
        List<Integer> limitedLines = new ArrayList<>();
        for (Timed timed : requests) {
            for (; nextSample <= timed.at; nextSample += step) {
                sample(engine, recorder, lanes, nextSample);
            }
            String key = keyOf(engine, timed.request);
            int lane = laneOf.getOrDefault(key, lanes.size());
            recorder.begin(lane);
            long cost = engine.chartCost(timed.request);
            Verdict verdict = engine.decide(timed.at, timed.request);
            recorder.record(timed.at, lane, key, cost, verdict);
            if (verdict.outcome().limited()) {
                limitedLines.add(timed.line);
            }
            if (lane < lanes.size() && verdict.tokensBefore() >= 0) {
                recorder.tokens(lane, timed.at, verdict.tokensBefore());
                recorder.tokens(lane, timed.at, verdict.tokensAfter());
            }
        }
        String applied = io.tollgate.simulator.Simulation.describe(rules.config(), rules.applied());
        String subtitle = applied + " · " + requests.size() + " requests over " + Rates.formatMicros(span) + " from "
                + WHEN.format(Instant.ofEpochSecond(start / 1_000_000)) + " UTC · " + log.format().name() + " format"
                + (log.bad().isEmpty() ? "" : " · " + log.bad().size() + " bad lines");
        long burst = rules.charted() == null ? 0 : rules.charted().limits().get(0).burst();
        Result result = recorder.finish(title, subtitle, span, burst);
        List<KeyStats> limited = ranked.stream().filter(k -> k.limited > 0).limit(LISTED).collect(Collectors.toList());
        return new Outcome(result, limited, log, List.copyOf(limitedLines));
    }

    private static void sample(Engine engine, Recorder recorder, List<String> lanes, long at) {
        for (int i = 0; i < lanes.size(); i++) {
            if (!lanes.get(i).equals(NOT_LIMITED)) {
                recorder.tokens(i, at, engine.peek(at, lanes.get(i)));
            }
        }
    }

    private static String keyOf(Engine engine, SimRequest request) {
        String key = engine.chartKey(request);
        return key == null ? NOT_LIMITED : key;
    }

    /** The log's requests as the rules see them, the requests of one logged instant spread over it. */
    static List<Timed> requests(AccessLog log, String stripPrefix) {
        List<LogRecord> records = log.records();
        List<Timed> timed = new ArrayList<>(records.size());
        int i = 0;
        while (i < records.size()) {
            int j = i;
            while (j < records.size() && records.get(j).timeMicros() == records.get(i).timeMicros()) {
                j++;
            }
            long resolution = records.get(i).resolution();
            for (int k = i; k < j; k++) {
                long offset = (k - i) * resolution / (j - i);
                timed.add(new Timed(records.get(k).timeMicros() + offset, request(records.get(k), stripPrefix), records.get(k).line()));
            }
            i = j;
        }
        return timed;
    }

    static SimRequest request(LogRecord record, String stripPrefix) {
        String target = record.target();
        int q = target.indexOf('?');
        String path = q < 0 ? target : target.substring(0, q);
        if (!stripPrefix.isEmpty() && path.startsWith(stripPrefix)) {
            path = path.substring(stripPrefix.length());
        }
        SimRequest.Builder request = SimRequest.builder(record.host(), path.isEmpty() ? "/" : path);
        if (record.user() != null) {
            request.principal(record.user());
        }
        record.headers().forEach(request::header);
        request.header(STATUS_HEADER, Integer.toString(record.status()));
        request.header(METHOD_HEADER, record.method());
        request.method(record.method());
        if (q >= 0) {
            for (String pair : target.substring(q + 1).split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                request.query(decode(eq < 0 ? pair : pair.substring(0, eq)), eq < 0 ? "" : decode(pair.substring(eq + 1)));
            }
        }
        return request.build();
    }

    private static String decode(String text) {
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return text;
        }
    }
}
