package io.tollgate.hosts;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What a client can see of buckets shared by servers on several hosts: whether they decide on one set of buckets
 * yet ({@link #await}), and how requests spread over them were decided ({@link #roundRobin}).
 */
public final class SharedBuckets {

    /**
     * The rule {@link #await} probes with: {@code reports} ({@code GET api/reports/{tenant}}, a bucket per tenant) with
     * one token an hour, denied while the store does not answer (so that no answer comes from a local decision). Put
     * it in the WAR's configuration.
     */
    public static final Map<String, String> PROBE_RULE = Map.of(
            "tollgate.rules.reports.rate", "1/1h",
            "tollgate.rules.reports.burst", "1",
            "tollgate.rules.reports.on-store-failure", "deny");

    private SharedBuckets() {
    }

    /**
     * Waits until the servers decide on one set of buckets: a fresh tenant's only token (rule {@link #PROBE_RULE}),
     * taken on one server, is gone on every other server: a 200, then 429s, each with a {@code RateLimit} field (with
     * the rule's {@code on-store-failure=deny}, an answer without the store is a 429 without one). Each server takes
     * the first request in turn; one success for each in a row ends the wait. After a probe that fails, the next
     * waits half a second.
     *
     * @return how long it took
     * @throws AssertionError after {@code timeout}, with the last probe's answers
     */
    public static Duration await(List<? extends ServerHost> servers, Duration timeout) {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        int inARow = 0;
        String last = "no probe yet";
        for (int probe = 0; inARow < servers.size(); probe++) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the " + servers.size() + " servers do not share buckets after "
                        + timeout.toSeconds() + " s; the last probe: " + last);
            }
            String tenant = "probe-" + probe + "-" + UUID.randomUUID();
            ServerHost first = servers.get(probe % servers.size());
            List<String> answers = new ArrayList<>();
            boolean shared;
            try {
                Reply taken = first.get("api/reports/" + tenant);
                answers.add(first + ": " + taken);
                shared = taken.status() == 200 && taken.header("RateLimit") != null;
                for (ServerHost other : servers) {
                    if (shared && other != first) {
                        Reply gone = other.get("api/reports/" + tenant);
                        answers.add(other + ": " + gone);
                        shared = gone.status() == 429 && gone.header("RateLimit") != null;
                    }
                }
            } catch (UncheckedIOException e) {
                answers.add(e.getMessage());
                shared = false;
            }
            last = String.join("; ", answers);
            if (shared) {
                inARow++;
            } else {
                inARow = 0;
                sleep(Duration.ofMillis(500));
            }
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        System.out.println("[it] " + servers.size() + " servers share buckets after " + took.toMillis() + " ms");
        return took;
    }

    /**
     * Sends {@code requests} GETs of {@code path}, one after the other, to the servers in turn (1, 2, 3, 1, ...).
     *
     * @param headers name, value, ... (e.g. the key: {@code "X-Api-Key", key})
     */
    public static Tally roundRobin(List<? extends ServerHost> servers, int requests, String path, String... headers) {
        List<Reply> replies = new ArrayList<>();
        List<ServerHost> to = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            ServerHost server = servers.get(i % servers.size());
            replies.add(server.get(path, headers));
            to.add(server);
        }
        return new Tally(replies, to);
    }

    /**
     * Requests and their answers. A 200 counts as allowed only with a {@code RateLimit} field: with
     * {@code on-store-failure=deny} no request passes without the store, so that the allowed ones are the store's
     * decisions. A 429 counts as denied either way; {@link #deniedWithoutStore()} tells how many the store did not
     * decide (no {@code RateLimit} field: the rule's {@code on-store-failure}).
     *
     * @param replies every answer, in order
     * @param servers who answered each
     */
    public record Tally(List<Reply> replies, List<ServerHost> servers) {

        /** @return the 200s with a {@code RateLimit} field: allowed by a decision of the store */
        public long allowed() {
            return replies.stream().filter(r -> r.status() == 200 && r.header("RateLimit") != null).count();
        }

        /** @return the 429s */
        public long denied() {
            return replies.stream().filter(r -> r.status() == 429).count();
        }

        /** @return the 429s without a {@code RateLimit} field: the store did not decide them */
        public long deniedWithoutStore() {
            return replies.stream().filter(r -> r.status() == 429 && r.header("RateLimit") == null).count();
        }

        /** @return the answers that are neither {@link #allowed()} nor {@link #denied()} */
        public List<Reply> others() {
            return replies.stream()
                    .filter(r -> r.status() != 429 && !(r.status() == 200 && r.header("RateLimit") != null))
                    .toList();
        }

        /** @return for each server (by host), its statuses in order, e.g. {@code {1=[200, 200, 429], ...}} */
        public Map<Integer, List<Integer>> statusesByHost() {
            Map<Integer, List<Integer>> byHost = new LinkedHashMap<>();
            for (int i = 0; i < replies.size(); i++) {
                byHost.computeIfAbsent(servers.get(i).host(), h -> new ArrayList<>()).add(replies.get(i).status());
            }
            return byHost;
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
