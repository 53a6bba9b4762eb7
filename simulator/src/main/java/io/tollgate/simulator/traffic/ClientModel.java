package io.tollgate.simulator.traffic;

import io.tollgate.simulator.engine.SimRequest;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * One client, or a group of {@code count} alike clients (one lane of the chart, one row of the table):
 * when they send (phases, spacing), what each request costs, and who they are to the rules
 * (address, path, principal, headers, query parameters, JWT claims; {@code {n}} in a value is the
 * client's number in its group).
 */
public final class ClientModel {

    private final String name;
    private final int index;
    private final int count;
    private final List<Phase> phases;
    private final Arrivals.Spacing spacing;
    private final Draw cost;
    private final String costHeader;
    private final String costQuery;
    private final Draw ip;
    private final Draw path;
    private final Draw principal;
    private final Map<String, Draw> headers;
    private final Map<String, Draw> query;
    private final Map<String, Draw> claims;

    ClientModel(String name, int index, int count, List<Phase> phases, Arrivals.Spacing spacing, Draw cost, String costHeader,
            String costQuery, Draw ip, Draw path, Draw principal, Map<String, Draw> headers, Map<String, Draw> query,
            Map<String, Draw> claims) {
        this.name = name;
        this.index = index;
        this.count = count;
        this.phases = List.copyOf(phases);
        this.spacing = spacing;
        this.cost = cost;
        this.costHeader = costHeader;
        this.costQuery = costQuery;
        this.ip = ip;
        this.path = path;
        this.principal = principal;
        this.headers = Map.copyOf(headers);
        this.query = Map.copyOf(query);
        this.claims = Map.copyOf(claims);
    }

    public String name() {
        return name;
    }

    /** @return how many clients of this kind */
    public int count() {
        return count;
    }

    public List<Phase> phases() {
        return phases;
    }

    public Arrivals.Spacing spacing() {
        return spacing;
    }

    /** @return how long the phases last, in µs */
    public long durationMicros() {
        return phases.stream().mapToLong(Phase::durationMicros).sum();
    }

    /** @return the arrivals of client number {@code n} (from 1) */
    public Arrivals arrivals(SplittableRandom random) {
        return new Arrivals(phases, spacing, random);
    }

    /** @return the cost of one request (what it really costs the service; sent as the cost header, if any) */
    public long drawCost(SplittableRandom random, int n) {
        return Long.parseLong(cost.draw(random, n));
    }

    /** @return a request of client number {@code n} with cost {@code cost} */
    public SimRequest request(SplittableRandom random, int n, long cost) {
        String address = ip == null ? defaultAddress(n) : ip.draw(random, n);
        SimRequest.Builder request = SimRequest.builder(address, path.draw(random, n));
        if (principal != null) {
            request.principal(principal.draw(random, n));
        }
        headers.forEach((header, value) -> request.header(header, value.draw(random, n)));
        query.forEach((parameter, value) -> request.query(parameter, value.draw(random, n)));
        claims.forEach((claim, value) -> request.claim(claim, value.draw(random, n)));
        if (costHeader != null) {
            request.header(costHeader, Long.toString(cost));
        }
        if (costQuery != null) {
            request.query(costQuery, Long.toString(cost));
        }
        return request.build();
    }

    /** One address per client: 10.(group).(n / 256).(n % 256). */
    private String defaultAddress(int n) {
        return "10." + (index + 1) + "." + (n >> 8) + "." + (n & 0xFF);
    }

    @Override
    public String toString() {
        return name + (count > 1 ? " (" + count + " clients)" : "") + ": " + phases;
    }
}
