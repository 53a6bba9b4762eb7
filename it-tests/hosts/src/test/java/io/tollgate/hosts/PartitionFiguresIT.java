package io.tollgate.hosts;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The figures of the README's "Several hosts, containers, Kubernetes": what a rule grants while one of three hosts is
 * cut off, under load, and how long the limiter takes to come back. Not part of the test command (it runs about eight
 * minutes); run it with
 *
 * <pre>{@code ./mvnw -B -ntp -f it-tests/hosts verify -Dit.test=PartitionFiguresIT -Dhosts.figures=true}</pre>
 *
 * <p>The three Liberty hosts of {@link QuorumHosts} (hosts 1 and 2 with a quorum of 2, host 3 without). Two rules,
 * each burst 10 and 1 token a second: {@code everyone} (one bucket for all, on {@code api/status}) and {@code search}
 * (one client, the same {@code X-Api-Key} on every host). One client per host sends both, 10 a second each. Each
 * scenario cuts one host for 15 s or 90 s, with the rules' {@code on-store-failure} set to {@code allow} (the old
 * default) or {@code local} (the new one); cutting host 3 shows a side without a quorum, cutting host 1 one with.
 * Counted from the cut until the limiter decides by the store on every host again: the grants per rule and side,
 * against the bound {@code 10 + 1/s × that time}.
 */
@EnabledIfSystemProperty(named = "hosts.figures", matches = "true")
class PartitionFiguresIT {

    private static final int HOSTS = QuorumHosts.COUNT;
    private static final int BURST = 10;
    private static final Duration REQUEST_EVERY = Duration.ofMillis(100);

    private record Scenario(int cutHost, Duration cut, String policy) {
    }

    /** One request's answer, as a client counted it. */
    private record Answer(long atNanos, int host, String rule, int status, boolean byStore) {
    }

    @Test
    void whatEachSideGrantsDuringACutAndHowSoonTheLimiterIsBack() {
        Hosts.Availability here = Hosts.availability();
        assumeTrue(here.available(), here.reason());
        Map<String, String> rules = new LinkedHashMap<>(SharedBuckets.PROBE_RULE);
        rules.put("tollgate.rules.search.rate", "1/1s");
        rules.put("tollgate.rules.search.burst", Integer.toString(BURST));
        rules.put("tollgate.rules.search.key", "header:X-Api-Key");
        rules.put("tollgate.rules.everyone.rate", "1/1s");
        rules.put("tollgate.rules.everyone.burst", Integer.toString(BURST));
        rules.put("tollgate.rules.everyone.key", "global");
        rules.put("tollgate.rules.everyone.paths", "/status");
        List<Scenario> scenarios = List.of(
                new Scenario(3, Duration.ofSeconds(15), "allow"), new Scenario(3, Duration.ofSeconds(15), "local"),
                new Scenario(1, Duration.ofSeconds(15), "local"), new Scenario(3, Duration.ofSeconds(90), "allow"),
                new Scenario(3, Duration.ofSeconds(90), "local"), new Scenario(1, Duration.ofSeconds(90), "local"));
        List<String> table = new ArrayList<>();
        try (Hosts hosts = Hosts.create(HOSTS)) {
            List<LibertyHost> servers = QuorumHosts.start(hosts, SampleWar.forLiberty("shop", rules));
            for (Scenario scenario : scenarios) {
                table.add(run(hosts, servers, scenario));
            }
        }
        System.out.println("[it] figures: cut | policy | rule | granted by the cut host / by the others (of which without "
                + "the store) | bound over the time counted | the store decides on every host again, after the heal");
        table.forEach(line -> System.out.println("[it] figures: " + line));
    }

    private static String run(Hosts hosts, List<LibertyHost> servers, Scenario scenario) {
        for (String rule : List.of("search", "everyone")) {
            Reply set = servers.get(1).post("api/operator/rules/" + rule, "{\"on-store-failure\":\"" + scenario.policy() + "\"}",
                    "Content-Type", "application/json");
            if (set.status() != 200) {
                throw new AssertionError("the policy was not set: " + set);
            }
        }
        // every instance has the policy, and the buckets refilled
        pause(Duration.ofSeconds(BURST + 2));
        List<Answer> answers = new CopyOnWriteArrayList<>();
        AtomicBoolean running = new AtomicBoolean(true);
        List<CompletableFuture<Void>> clients = new ArrayList<>();
        for (int i = 0; i < HOSTS; i++) {
            LibertyHost server = servers.get(i);
            int host = i + 1;
            clients.add(CompletableFuture.runAsync(() -> load(server, host, running, answers)));
        }
        pause(Duration.ofSeconds(2));
        long cutAt = System.nanoTime();
        hosts.isolate(scenario.cutHost());
        pause(scenario.cut());
        hosts.rejoin(scenario.cutHost());
        long healedAt = System.nanoTime();
        Duration oneCluster = SharedBuckets.await(servers, Duration.ofSeconds(180));
        Duration back = awaitAllByStore(answers, healedAt, Duration.ofSeconds(180));
        long endAt = System.nanoTime();
        running.set(false);
        clients.forEach(CompletableFuture::join);
        double seconds = (endAt - cutAt) / 1e9;
        long bound = BURST + (long) Math.floor(seconds);
        StringBuilder line = new StringBuilder();
        for (String rule : List.of("everyone", "search")) {
            long cutHost = 0;
            long others = 0;
            long withoutStore = 0;
            for (Answer answer : answers) {
                if (answer.rule().equals(rule) && answer.status() == 200 && answer.atNanos() >= cutAt && answer.atNanos() <= endAt) {
                    if (answer.host() == scenario.cutHost()) {
                        cutHost++;
                    } else {
                        others++;
                    }
                    withoutStore += answer.byStore() ? 0 : 1;
                }
            }
            line.append(line.length() == 0 ? "" : "\n[it] figures: ").append(String.format("host %d, %d s | %s | %s | %d / %d (%d) "
                    + "= %d | %d in %.0f s | %.1f s (one cluster after %.1f s)", scenario.cutHost(), scenario.cut().toSeconds(),
                    scenario.policy(), rule, cutHost, others, withoutStore, cutHost + others, bound, seconds,
                    back.toMillis() / 1000.0, oneCluster.toMillis() / 1000.0));
        }
        return line.toString();
    }

    /** One client of one host: both rules, one request each every {@link #REQUEST_EVERY}, until told to stop. */
    private static void load(LibertyHost server, int host, AtomicBoolean running, List<Answer> answers) {
        while (running.get()) {
            long next = System.nanoTime() + REQUEST_EVERY.toNanos();
            answers.add(ask(server, host, "everyone", "api/status"));
            answers.add(ask(server, host, "search", "api/search?q=tea", "X-Api-Key", "one-client"));
            long left = next - System.nanoTime();
            if (left > 0) {
                pause(Duration.ofNanos(left));
            }
        }
    }

    private static Answer ask(LibertyHost server, int host, String rule, String path, String... headers) {
        long at = System.nanoTime();
        try {
            Reply reply = server.get(path, headers);
            return new Answer(at, host, rule, reply.status(), reply.header("RateLimit") != null);
        } catch (RuntimeException e) {
            return new Answer(at, host, rule, -1, false);
        }
    }

    /** @return how long after the heal every host's last answers of both rules were decided by the store again */
    private static Duration awaitAllByStore(List<Answer> answers, long healedAt, Duration timeout) {
        while (System.nanoTime() - healedAt < timeout.toNanos()) {
            long since = System.nanoTime() - Duration.ofSeconds(1).toNanos();
            boolean all = true;
            for (int host = 1; host <= HOSTS; host++) {
                int h = host;
                List<Answer> recent = answers.stream().filter(a -> a.host() == h && a.atNanos() > Math.max(since, healedAt)).toList();
                all &= !recent.isEmpty() && recent.stream().allMatch(Answer::byStore);
            }
            if (all) {
                long firstOfTheRun = answers.stream().filter(a -> a.atNanos() > healedAt && !a.byStore())
                        .mapToLong(Answer::atNanos).max().orElse(healedAt);
                return Duration.ofNanos(Math.max(0, firstOfTheRun - healedAt));
            }
            pause(Duration.ofMillis(100));
        }
        throw new AssertionError("the limiter did not decide by the store on every host within " + timeout.toSeconds() + " s of the heal");
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(Math.max(1, duration.toMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
